#!/usr/bin/env node
/** The `bot-conversation` command: `bot-conversation check --base-url URL --token TOKEN`. */
import { main } from "./command.ts";

const stop = new AbortController();
// The first Ctrl-C stops the run and prints the partial report; a second one quits at once.
process.once("SIGINT", () => {
  process.stderr.write("\nStopping: finishing the report (Ctrl-C again to quit at once)\n");
  stop.abort();
  process.once("SIGINT", () => process.exit(130));
});
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signal: stop.signal, env: process.env });
