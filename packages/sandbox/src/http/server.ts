/**
 * The sandbox served by Node's HTTP server: each request handed to the Node adapter of the one pipeline
 * (`node-adapter.ts`), idle connections kept 65 s, what Node's parser refuses answered with a problem, and a
 * graceful stop.
 */
import { createServer } from "node:http";
import { type AddressInfo, Server as NetServer } from "node:net";
import type { Duplex } from "node:stream";
import { problemText } from "../operations/problem.ts";
import type { ServerOptions } from "../options.ts";
import { maxHeaderBytes } from "./context.ts";
import { answerNode, type NodeServed } from "./node-adapter.ts";

/** What the server serves: a sandbox's pipeline and its options (`NodeServed`), and how it closes. */
export interface ServedSandbox extends NodeServed {
  /** Closes the sandbox. */
  close(): Promise<void>;
  /** Readiness false from now on; resolves once no request is in flight, or after `boundMs` (an observed sandbox's, `observe/observe.ts`). */
  drain?(boundMs: number): Promise<void>;
}

/** The longest a stop waits for the requests in flight to be answered before it closes their connections (our choice). */
export const drainBoundMs = 10_000;

/** A sandbox served over HTTP. */
export interface RunningServer<Served> {
  /** Base URL, e.g. `http://127.0.0.1:4011`. */
  readonly url: string;
  /** The sandbox behind the server. */
  readonly sandbox: Served;
  /**
   * Stops gracefully: stops accepting connections, answers `/_sandbox/ready` with `503` on every connection
   * still open (each closed once it has answered), lets the requests in flight finish (for at most
   * `drainBoundMs`), closes the connections left, then closes the sandbox (and its `--data` file, if it has one).
   */
  stop(): Promise<void>;
}

/** How long the server keeps an idle connection open, in milliseconds (it says so in `Keep-Alive: timeout=65`). */
export const keepAliveMs = 65_000;

/** Serves a sandbox over HTTP on `host` and `port` (the Node adapter of the one app); the sandbox is closed when the server stops, or when it cannot listen. */
export async function serveSandbox<Served extends ServedSandbox>(
  sandbox: Served,
  { host, port }: Pick<ServerOptions, "host" | "port">,
): Promise<RunningServer<Served>> {
  const server = createServer((incoming, outgoing) => answerNode(sandbox, incoming, outgoing));
  // An idle connection is kept 65 s rather than Node's 5 s (our choice, longer than common load balancers' 60 s):
  // a client waiting on a long reset, on a busy machine, must not find its kept-alive connection closed under it.
  server.keepAliveTimeout = keepAliveMs;
  server.headersTimeout = keepAliveMs + 1_000;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, sandbox.options.errorMediaType));
  const address = await new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  }).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  const hostInUrl = address.address.includes(":") ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostInUrl}:${address.port}`,
    sandbox,
    stop: async () => {
      // No new connection, but those open stay open while the requests in flight finish: a request on one (a kept-alive
      // one too) is answered, readiness 503, and the connection closed after it (observe.ts). Node's own `close` would
      // close the idle kept-alive ones at once, under a client about to ask: it only stops listening here.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      await sandbox.drain?.(drainBoundMs);
      // Node's own close now: the idle connections, and its timer that checks connections' time-outs.
      server.close();
      server.closeAllConnections();
      await closed;
      await sandbox.close();
    },
  };
}

/**
 * A request Node's HTTP parser refused before the sandbox saw it: a request line and headers over
 * Node's limit get a 431 with a problem body naming the limit (Node would send a bare 431), anything
 * else malformed a 400; the connection is then closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, mediaType: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "Request Header Fields Too Large",
          `The request line and headers must be at most ${maxHeaderBytes} bytes together (Node's limit, which the sandbox keeps); a long query is the usual cause.`,
        ]
      : [400, "Bad Request", "The request is not valid HTTP/1.1."];
  const body = problemText(status, detail);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${mediaType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
