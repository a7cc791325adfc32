import { parseServerOptions } from "./options.ts";
import { startSandboxServer } from "./server.ts";

/** How long the process outlives the last stop signal. */
const signalSettleMs = 250;

/** Starts the sandbox server, prints its URL, and stops it on Ctrl-C or SIGTERM. */
async function main(): Promise<void> {
  const running = await startSandboxServer(parseServerOptions(process.argv.slice(2), process.env));
  console.log(`Sandbox ready at ${running.url}`);
  // One Ctrl-C reaches this process several times within milliseconds (terminal, turbo, pnpm): every
  // signal is handled (an unhandled second one kills the process, which pnpm reports as ELIFECYCLE),
  // and the process exits once they have settled.
  let stopping: Promise<void> | undefined;
  let settling: NodeJS.Timeout | undefined;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopping ??= running.stop();
      clearTimeout(settling);
      settling = setTimeout(() => void stopping?.then(() => process.exit(0)), signalSettleMs);
    });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
