import { parseMockOptions } from "./options.ts";
import { isPortFree } from "./port.ts";
import { type RunningMock, startMock } from "./prism.ts";

/** How long the launcher outlives the last stop signal. */
const signalSettleMs = 250;

/**
 * Starts the mock, prints its URL, and stops Prism on Ctrl-C or SIGTERM. The signal handlers are in
 * place before anything starts, and every signal is handled, not only the first: Ctrl-C under pnpm
 * delivers SIGINT twice (from the terminal and from pnpm), and a signal without a handler would kill
 * the launcher mid-start or mid-stop, which pnpm reports as `ELIFECYCLE Command failed.`.
 */
async function main(): Promise<void> {
  const options = parseMockOptions(process.argv.slice(2), process.env);
  // Prism answers a busy port with its whole help text: one line instead, before it starts.
  if (options.port !== 0 && !(await isPortFree(options.host, options.port))) {
    console.error(`Mock: port ${options.port} on ${options.host} is in use; pick another with --port <port> (or MOCK_PORT=<port>).`);
    process.exitCode = 1;
    return;
  }
  let mock: RunningMock | undefined;
  let stopSignal: NodeJS.Signals | undefined;
  // One Ctrl-C reaches the launcher several times within milliseconds (terminal, turbo, pnpm), and a
  // signal that lands while Node is exiting kills it: the process stays until the signals have settled.
  let settling: NodeJS.Timeout | undefined;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopSignal = signal;
      void mock?.stop(signal);
      clearTimeout(settling);
      settling = setTimeout(() => {}, signalSettleMs);
    });
  }
  try {
    mock = await startMock(options);
  } catch (error) {
    // Stopped while starting: Prism went down with the same Ctrl-C, which is no failure.
    if (stopSignal !== undefined) return;
    throw error;
  }
  mock.process.once("exit", (code, signal) => {
    process.exitCode = stopSignal !== undefined || signal === "SIGINT" || signal === "SIGTERM" ? 0 : (code ?? 1);
  });
  if (stopSignal !== undefined) {
    await mock.stop(stopSignal);
    return;
  }
  const mode = options.dynamic ? ` (dynamic, seed ${JSON.stringify(options.seed)})` : "";
  console.log(`Mock ready at ${mock.url}${mode}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
