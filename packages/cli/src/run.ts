import { runCommand } from "./command.js";

const command = process.argv[2];
const stop = new AbortController();
// The first Ctrl-C stops the request in flight (a check prints its partial report; exit 130), a second
// one quits at once. The sandbox and the MCP server handle their own ends (signals, stdin closed).
if (command !== "sandbox" && command !== "mcp") {
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
process.exitCode = await runCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, signal: stop.signal });
