import { parseMockOptions } from "./options.ts";
import { startMock } from "./prism.ts";

/** Starts the mock, prints its URL, and stops Prism on Ctrl-C or SIGTERM. */
async function main(): Promise<void> {
  const options = parseMockOptions(process.argv.slice(2), process.env);
  const mock = await startMock(options);
  const mode = options.dynamic ? ` (dynamic, seed ${JSON.stringify(options.seed)})` : "";
  console.log(`Mock ready at ${mock.url}${mode}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void mock.stop(signal));
  }
  mock.process.once("exit", (code, signal) => {
    process.exitCode = signal === "SIGINT" || signal === "SIGTERM" ? 0 : (code ?? 1);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
