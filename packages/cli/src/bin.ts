#!/usr/bin/env node
/** The `bot-conversation` command: checks the Node.js version first, then runs the command (`run.ts`). */
import { requireNode } from "@bot-conversation/sandbox/node-version";

requireNode("bot-conversation");
await import("./run.js");
