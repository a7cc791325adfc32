import { fstatSync } from "node:fs";
import { runCommand } from "./command.js";
import { type CommandIo, FileOutput } from "./io.js";

/** Standard output: written straight to the file when it is a regular file (`> conversations.ndjson`, `FileOutput`); otherwise Node's own stream. */
const standardOutput = (): CommandIo["stdout"] => (fstatSync(1).isFile() ? new FileOutput(1) : process.stdout);

const command = process.argv[2];
const stop = new AbortController();
// The first Ctrl-C stops the request in flight (a check prints its partial report; exit 130), a second
// one quits at once. The sandbox, the MCP server and the recorder handle their own ends (signals, stdin
// closed; the recorder absorbs a second signal while it writes its files).
if (command !== "sandbox" && command !== "mcp" && command !== "record") {
  process.once("SIGINT", () => {
    if (command === "check") process.stderr.write("\nStopping: finishing the report (Ctrl-C again to quit at once)\n");
    stop.abort();
    process.once("SIGINT", () => process.exit(130));
  });
}
// A reader that stops early (`| head`) closes the pipe: that ends the output, not in an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
process.exitCode = await runCommand(process.argv.slice(2), {
  stdout: standardOutput(),
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: stop.signal,
});
