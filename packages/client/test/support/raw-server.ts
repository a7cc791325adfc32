import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import { listenOnLoopback } from "./server.js";

/** A real node:net server on 127.0.0.1 with an ephemeral port, for responses node:http will not write (malformed, cut short). */
export interface RawServer {
  /** Base address, e.g. `http://127.0.0.1:50123`. */
  readonly url: string;
  /** The raw text of every request received so far (head and whatever body arrived with it). */
  readonly requests: string[];
  /** Closes the server and destroys its sockets. */
  close(): Promise<void>;
}

/** Starts a server that hands each connection's first chunk of request bytes, and its socket, to `answer`. */
export async function startRawServer(answer: (socket: Socket, request: string) => void): Promise<RawServer> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.once("data", (chunk) => {
      requests.push(String(chunk));
      answer(socket, String(chunk));
    });
  });
  return {
    url: await listenOnLoopback(server),
    requests,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
