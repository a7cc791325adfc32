#!/usr/bin/env node
/** The `bot-conversation` command: checks the Node.js version, then runs the command (`command.ts`). */
import { requireNode } from "@bot-conversation/sandbox/node-version";

requireNode("bot-conversation");
const { runCommand } = await import("./command.ts");
const stop = new AbortController();
// The first Ctrl-C stops a check and prints the partial report; a second one quits at once. The sandbox handles its own signals.
if (process.argv[2] === "check") {
  process.once("SIGINT", () => {
    process.stderr.write("\nStopping: finishing the report (Ctrl-C again to quit at once)\n");
    stop.abort();
    process.once("SIGINT", () => process.exit(130));
  });
}
process.exitCode = await runCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signal: stop.signal, env: process.env });
