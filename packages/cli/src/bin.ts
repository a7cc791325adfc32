#!/usr/bin/env node
/** The `bot-conversation` command: checks the Node.js version first, then runs the command (`run.ts`). */
import nodeModule from "node:module";
import { requireNode } from "@bot-conversation/sandbox/node-version";

requireNode("bot-conversation");
// Node's compile cache (our choice, as TypeScript's `tsc` does): V8's code of the command's modules kept in the
// system's temporary folder (`node-compile-cache`), so a later start compiles less (a one-page search: about 12 ms
// of CPU less, 148 -> 136). `NODE_DISABLE_COMPILE_CACHE=1` turns it off; a folder that cannot be written only costs the saving.
// Looked up on the module, not imported by name: an older Node (no such export) must reach `requireNode`'s line.
nodeModule.enableCompileCache();
await import("./run.js");
