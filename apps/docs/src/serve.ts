import type { Server } from "node:http";
import { distDirectory } from "./paths.ts";
import { parseServeOptions } from "./options.ts";
import { createStaticServer, listen } from "./server.ts";

/** Serves `dist/` at the address from the command line, prints `label` and the URL, and closes on Ctrl-C or SIGTERM. */
export async function serveSite(label: string, defaultPort: number): Promise<Server> {
  const options = parseServeOptions(process.argv.slice(2), process.env, defaultPort);
  const server = createStaticServer(distDirectory);
  const url = await listen(server, options.host, options.port);
  console.log(`${label} at ${url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.close();
      server.closeAllConnections();
    });
  }
  return server;
}
