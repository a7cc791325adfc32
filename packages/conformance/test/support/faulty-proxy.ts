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

/** A request as the fault sees it, from either transport. */
interface FaultedRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Headers;
  /** Reads the body (after any delay, as a slow server would). */
  readonly body: () => Promise<Buffer>;
}

/** Headers that belong to a connection, not to the exchange: neither forwarded up nor copied back. */
const hopByHop = { request: ["host", "connection", "content-length"], response: ["content-length", "content-encoding", "transfer-encoding", "connection"] };

/** What the upstream answers to a request through `fault`: the one rule of both transports (a 502 when the upstream fails). */
function faultedAnswer(upstream: Upstream, fault: Fault): (request: FaultedRequest) => Promise<ProxiedResponse> {
  const send = upstream.fetch ?? globalThis.fetch;
  return async ({ url, method, headers, body: readBody }) => {
    try {
      const forward = async (target: URL, body?: Buffer): Promise<ProxiedResponse> => {
        const answer = await send(target, { method, headers, ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}) });
        const proxied: ProxiedResponse = { status: answer.status, headers: {}, body: await answer.text() };
        answer.headers.forEach((value, name) => {
          if (!hopByHop.response.includes(name)) proxied.headers[name] = value;
        });
        return proxied;
      };
      const delay = fault.delayMs?.(url) ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const body = await readBody();
      const answered = await fault.request?.(
        url,
        headers,
        (target, text) => forward(target, text === undefined ? body : Buffer.from(text)),
        body.toString(),
        method,
      );
      if (answered) return answered;
      const response = await forward(url, body);
      fault.response?.(url, response);
      return response;
    } catch (error) {
      return { status: 502, headers: { "content-type": "text/plain" }, body: `proxy error: ${String(error)}` };
    }
  };
}

/** The request's headers but those of the connection. */
function forwardedHeaders(entries: Iterable<[string, string | string[] | undefined]>): Headers {
  const headers = new Headers();
  for (const [name, value] of entries) if (typeof value === "string" && !hopByHop.request.includes(name)) headers.set(name, value);
  return headers;
}

/** Starts a proxy on 127.0.0.1 and an ephemeral port that forwards to `upstream` through `fault`. */
export async function startFaultyProxy(upstream: Upstream, fault: Fault = {}): Promise<FaultyProxy> {
  const answer = faultedAnswer(upstream, fault);
  const server: Server = createServer(async (incoming, outgoing) => {
    try {
      const response = await answer({
        url: new URL(incoming.url ?? "/", upstream.baseUrl),
        method: incoming.method ?? "GET",
        headers: forwardedHeaders(Object.entries(incoming.headers)),
        body: () => bodyOf(incoming),
      });
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

/** Statuses Node's server answers without a body or a length. */
const bodilessStatuses = [204, 304];

/** The base address the kit is given with a `faultyFetch`: no socket is opened, so any address does. */
export const faultyFetchBaseUrl = "http://proxy.test";

/**
 * The same proxy as a `fetch`, in process: the faults are those of `startFaultyProxy`, answered without a socket
 * (for the kit's many runs side by side, whose transport over HTTP its own tests cover). Like Node's server, it
 * answers a HEAD, a 204 and a 304 with no body, and says the length of any other body.
 */
export function faultyFetch(upstream: Upstream, fault: Fault = {}): typeof globalThis.fetch {
  const answer = faultedAnswer(upstream, fault);
  return async (input, init) => {
    const request = new Request(input, init);
    const { pathname, search } = new URL(request.url);
    const headers = forwardedHeaders(request.headers);
    // As on the wire: a body given as a stream goes chunked (fetch gives it no length), as the socket proxy would see it.
    if (init?.body instanceof ReadableStream) headers.set("transfer-encoding", "chunked");
    const response = await answer({
      url: new URL(pathname + search, upstream.baseUrl),
      method: request.method,
      headers,
      body: async () => Buffer.from(await request.arrayBuffer()),
    });
    const body = response.bytes ?? Buffer.from(response.body);
    const bodilessStatus = bodilessStatuses.includes(response.status);
    try {
      const headers = new Headers(response.headers);
      if (!bodilessStatus) headers.set("content-length", String(body.byteLength));
      return new Response(request.method === "HEAD" || bodilessStatus ? null : new Uint8Array(body), { status: response.status, headers });
    } catch (error) {
      return new Response(`proxy error: ${String(error)}`, { status: 502, headers: { "content-type": "text/plain" } });
    }
  };
}

/** Rewrites a JSON response body in place (an empty body stays empty). */
export function editJson(response: ProxiedResponse, edit: (body: unknown) => unknown): void {
  // A HEAD answer has no body to edit.
  if (response.body === "") return;
  response.body = JSON.stringify(edit(JSON.parse(response.body) as unknown));
}
