import { once } from "node:events";
import type { Server } from "node:http";

/** A test server listening on loopback: its address, and a close that ends every connection first. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Closes every connection (kept-alive ones too) and the server; resolves once it is closed. */
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 on a free port, as every test server of the workspace listens. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
