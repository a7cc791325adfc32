import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A node:http server on 127.0.0.1 with an ephemeral port, and how to stop it. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Closes the server and every open connection. */
  close: () => Promise<void>;
}

/** Starts a node:http server on 127.0.0.1 with an ephemeral port. */
export async function listenOnLoopback(handler: RequestListener): Promise<LoopbackServer> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
