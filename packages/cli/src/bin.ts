#!/usr/bin/env node
// The `bot-conversation` command. The Node check comes first, before anything that needs a newer Node is loaded.
const [major = 0] = process.versions.node.split(".").map(Number);
if (major < 22) {
  process.stderr.write(`bot-conversation needs Node 22 or newer; this is Node ${process.versions.node}\n`);
  process.exit(1);
}
await import("./run.js");
