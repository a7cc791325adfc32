import type { Server } from "node:http";
import { parseServeOptions } from "./options.ts";
import { distDirectory } from "./paths.ts";
import { createStaticServer, listen } from "./server.ts";

/** How long the process outlives the last stop signal (see below). */
const signalSettleMs = 250;

/** Serves `dist/` at the address from the command line, prints `label` and the URL, and closes on Ctrl-C or SIGTERM. */
export async function serveSite(label: string, defaultPort: number): Promise<Server> {
  const options = parseServeOptions(process.argv.slice(2), process.env, defaultPort);
  const server = createStaticServer(distDirectory);
  const url = await listen(server, options.host, options.port);
  console.log(`${label} at ${url}`);
  // One Ctrl-C reaches this process several times within milliseconds (terminal, turbo, pnpm), and a
  // signal that lands while Node is exiting kills it, which pnpm reports as ELIFECYCLE. So the server
  // closes at once, and the process stays, handling signals, until they have settled.
  let settling: NodeJS.Timeout | undefined;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.close();
      server.closeAllConnections();
      clearTimeout(settling);
      settling = setTimeout(() => {}, signalSettleMs);
    });
  }
  return server;
}
