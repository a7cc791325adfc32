#!/usr/bin/env node
/** The `bot-conversation-sandbox` command: checks the Node.js version, then serves the sandbox (`main.ts`). */
import { requireNode } from "./node-version.ts";

requireNode("bot-conversation-sandbox");
await import("./main.ts");
