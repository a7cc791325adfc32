import { parseServerOptions } from "./options.ts";
import { startSandboxServer, type RunningSandbox } from "./server.ts";

/** How long the process outlives the last stop signal. */
const signalSettleMs = 250;

/** Where the sandbox command writes, and its environment (`SANDBOX_PORT`, `SANDBOX_TOKENS`, ...). */
export interface SandboxCommandIo {
  /** Receives the ready line. */
  readonly stdout: NodeJS.WritableStream;
  /** Environment read for the options' variables. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The sandbox command (`bot-conversation sandbox`, `pnpm start`): reads the arguments, starts the
 * server, prints `Sandbox ready at <url>`, and stops it (then exits) on Ctrl-C or SIGTERM.
 */
export async function runSandboxCommand(argv: readonly string[], io: SandboxCommandIo): Promise<RunningSandbox> {
  const running = await startSandboxServer(parseServerOptions(argv, io.env));
  io.stdout.write(`Sandbox ready at ${running.url}\n`);
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
  return running;
}
