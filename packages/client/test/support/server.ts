import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Server } from "node:net";

/** Listens on 127.0.0.1 with an ephemeral port; resolves to the base address, e.g. `http://127.0.0.1:50123`. */
export async function listenOnLoopback(server: Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return `http://127.0.0.1:${address.port}`;
}

/** A request the test server received. */
export interface ReceivedRequest {
  /** HTTP method. */
  readonly method: string;
  /** Path with query string. */
  readonly url: string;
  /** Request headers, lower-case names. */
  readonly headers: IncomingMessage["headers"];
  /** Request body text. */
  readonly body: string;
}

/** Answers one request; `index` counts requests from 0. */
export type Handler = (request: ReceivedRequest, response: ServerResponse, index: number) => void;

/** A real node:http server on 127.0.0.1 with an ephemeral port. */
export interface TestServer {
  /** Base address, e.g. `http://127.0.0.1:50123`. */
  readonly url: string;
  /** Every request received so far. */
  readonly requests: ReceivedRequest[];
  /** Closes the server and its connections. */
  close(): Promise<void>;
}

/** Starts a server that answers every request with `handler`. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer(async (incoming, response) => {
    let body = "";
    for await (const chunk of incoming) body += String(chunk);
    const request = { method: incoming.method ?? "", url: incoming.url ?? "", headers: incoming.headers, body };
    requests.push(request);
    handler(request, response, requests.length - 1);
  });
  return {
    url: await listenOnLoopback(server),
    requests,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** Sends a JSON body with a status and optional extra headers. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}
