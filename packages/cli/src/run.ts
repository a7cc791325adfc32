import { main } from "./command.js";

const stop = new AbortController();
// The first Ctrl-C stops the request in flight (exit 130); a second one quits at once.
process.once("SIGINT", () => {
  stop.abort();
  process.once("SIGINT", () => process.exit(130));
});
// A reader that stops early (`| head`) closes the pipe: that ends the output, not in an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, signal: stop.signal });
