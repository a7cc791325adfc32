import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { ServerOptions } from "./options.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";

/** The sandbox served over HTTP. */
export interface RunningSandbox {
  /** Base URL, e.g. `http://127.0.0.1:4011`. */
  readonly url: string;
  /** The sandbox behind the server. */
  readonly sandbox: Sandbox;
  /** Stops listening, closes open connections, then closes the database. */
  stop(): Promise<void>;
}

/** Creates the sandbox and serves its `fetch` handler with Node's HTTP server (the only Node-specific part). */
export async function startSandboxServer(options: Partial<ServerOptions> & Pick<ServerOptions, "host" | "port">): Promise<RunningSandbox> {
  const { host: _host, port: _port, ...sandboxOptions } = options;
  const sandbox = await createSandbox(sandboxOptions);
  const { server, address } = await new Promise<{ server: ReturnType<typeof serve>; address: AddressInfo }>((resolve, reject) => {
    const server = serve({ fetch: (request) => sandbox.fetch(request), hostname: options.host, port: options.port }, (info) => resolve({ server, address: info }));
    server.once("error", reject);
  }).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  const host = address.address.includes(":") ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    sandbox,
    stop: async () => {
      await new Promise<void>((resolve) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => resolve());
      });
      await sandbox.close();
    },
  };
}
