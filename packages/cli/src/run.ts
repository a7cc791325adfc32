import { fstatSync, writeSync } from "node:fs";
import { Writable } from "node:stream";
import { runCommand } from "./command.js";
import type { CommandIo } from "./io.js";

/**
 * Standard output. When it is a regular file (`> conversations.ndjson`), text is written to it as it
 * is; Node's stream for a file would first copy each part into a Buffer, which made a long export's
 * memory grow. Otherwise, Node's own stream.
 */
function standardOutput(): CommandIo["stdout"] {
  if (!fstatSync(1).isFile()) return process.stdout;
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Uint8Array, encoding: BufferEncoding, callback: (error?: Error | null) => void) {
      try {
        if (typeof chunk === "string") writeSync(1, chunk, null, encoding);
        else writeSync(1, chunk);
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback();
    },
  });
}

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
