import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A response as the proxy holds it between the upstream and the client. */
export interface ProxiedResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (lower-case names). */
  headers: Record<string, string>;
  /** Body text. */
  body: string;
  /** Body bytes, sent instead of `body` when set (a body in another encoding than UTF-8). */
  bytes?: Uint8Array;
}

/** One deliberate fault: changes the request on its way up, or the response on its way back. */
export interface Fault {
  /**
   * Rewrites or answers a request: return a response to answer without the upstream (`upstream` asks it
   * for another URL, with this request's body or `body`); `body` is the request's body text.
   */
  readonly request?: (
    url: URL,
    headers: Headers,
    upstream: (url: URL, body?: string) => Promise<ProxiedResponse>,
    body: string,
    method: string,
  ) => ProxiedResponse | undefined | Promise<ProxiedResponse | undefined>;
  /** Milliseconds to wait before answering a request (a slow server). */
  readonly delayMs?: (url: URL) => number;
  /** Rewrites the upstream's response. */
  readonly response?: (url: URL, response: ProxiedResponse) => void;
}

/** A proxy on 127.0.0.1 in front of a server, breaking one thing; stop it with `close`. */
export interface FaultyProxy {
  /** Base address of the proxy. */
  readonly url: string;
  /** Stops the proxy. */
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Where the proxy forwards to: a base address, and the fetch that reaches it (an in-process server's own fetch works). */
export interface Upstream {
  /** Base address of the upstream server. */
  readonly baseUrl: string;
  /** Fetch used to reach it; the global fetch by default. */
  readonly fetch?: typeof globalThis.fetch;
}

/** Starts a proxy on 127.0.0.1 and an ephemeral port that forwards to `upstream` through `fault`. */
export async function startFaultyProxy(upstream: Upstream, fault: Fault = {}): Promise<FaultyProxy> {
  const send = upstream.fetch ?? globalThis.fetch;
  const server: Server = createServer(async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? "/", upstream.baseUrl);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers.set(name, value);
      }
      const forward = async (target: URL, body?: Buffer): Promise<ProxiedResponse> => {
        const answer = await send(target, { method: incoming.method ?? "GET", headers, ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}) });
        const proxied: ProxiedResponse = { status: answer.status, headers: {}, body: await answer.text() };
        answer.headers.forEach((value, name) => {
          if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(name)) proxied.headers[name] = value;
        });
        return proxied;
      };
      const delay = fault.delayMs?.(url) ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const body = await bodyOf(incoming);
      let response = await fault.request?.(
        url,
        headers,
        (target, text) => forward(target, text === undefined ? body : Buffer.from(text)),
        body.toString(),
        incoming.method ?? "GET",
      );
      if (!response) {
        response = await forward(url, body);
        fault.response?.(url, response);
      }
      outgoing.writeHead(response.status, response.headers).end(response.bytes ?? response.body);
    } catch (error) {
      outgoing.writeHead(502, { "content-type": "text/plain" }).end(`proxy error: ${String(error)}`);
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Rewrites a JSON response body in place (an empty body stays empty). */
export function editJson(response: ProxiedResponse, edit: (body: unknown) => unknown): void {
  // A HEAD answer has no body to edit.
  if (response.body === "") return;
  response.body = JSON.stringify(edit(JSON.parse(response.body) as unknown));
}
