import { parseServerOptions } from "./options.ts";
import { startSandboxServer } from "./server.ts";

/** Starts the sandbox server, prints its URL, and stops it on Ctrl-C or SIGTERM. */
async function main(): Promise<void> {
  const running = await startSandboxServer(parseServerOptions(process.argv.slice(2), process.env));
  console.log(`Sandbox ready at ${running.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void running.stop().then(() => process.exit(0)));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
