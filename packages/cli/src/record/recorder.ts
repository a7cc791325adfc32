/**
 * The recorder: a transparent proxy in front of the real service. Each request is forwarded as sent
 * and the upstream's status, headers and body are answered as they came (byte for byte); then the
 * exchange, its secrets removed where they stand (`redact.ts`) and end users' words pseudonymised, is
 * appended to the journal (`exchanges.ndjson`) and read by the derivation (`derive.ts`), which writes
 * every other file on `stop`: `report.json`, `report.md`, `fixture.json`, `switches.json`,
 * `open-points.json`, `exchanges.har`. No token, cookie or `Authorization` value is ever kept in a file or a log line.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getCACertificates } from "node:tls";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { defaultMaxResponseBytes } from "@bot-conversation/client";
import { redactText, sanitizeText } from "@bot-conversation/client/text";
import type { Judged, RecordingResult } from "./derive.js";
import { forwarder, readBounded } from "./forward.js";
import { requestSecrets } from "./redact.js";
import { RecordingSession, type SessionOptions } from "./session.js";

export type { RecordingResult } from "./derive.js";

/** What the recorder forwards to, where it listens and what it writes. */
export interface RecorderOptions extends SessionOptions {
  /** The real service's base URL (`https://bots.example.com`); its path is kept as a prefix. */
  readonly upstream: string;
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 (the default) takes any free port. */
  readonly port?: number;
  /** Extra CA certificates (PEM text) trusted for an HTTPS upstream, besides Node's and the system's. */
  readonly ca?: string;
  /** Bound of every read of the upstream and of the client, in milliseconds; default 60,000 (the client's per-attempt default). */
  readonly timeoutMs?: number;
  /** Largest request body read from a client; default 1 MiB (our choice: a fire request is far smaller). */
  readonly maxRequestBytes?: number;
  /** Largest upstream body read; default the client's `defaultMaxResponseBytes` (16 MiB). */
  readonly maxResponseBytes?: number;
  /** Receives one line per request the upstream did not answer (sanitized, redacted), and with `logExchanges` one per exchange. */
  readonly log?: (line: string) => void;
  /** Also log a line per exchange: its operation, status and verdict (`searchConversations 200 valid`). */
  readonly logExchanges?: boolean;
}

/** A running recorder. */
export interface RunningRecorder {
  /** `http://<host>:<port>`, no trailing slash: the client's base URL. */
  readonly url: string;
  /** Stops listening, lets the requests in flight finish, writes the files; resolves once they are on disk. */
  stop(): Promise<RecordingResult>;
}

/** The default bound of a client's request body: 1 MiB (our choice). */
export const defaultMaxRequestBytes = 2 ** 20;

/** Starts the recorder; rejects when it cannot listen (a busy port). */
export async function startRecorder(options: RecorderOptions): Promise<RunningRecorder> {
  const base = new URL(options.upstream);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRequestBytes = options.maxRequestBytes ?? defaultMaxRequestBytes;
  const maxResponseBytes = options.maxResponseBytes ?? defaultMaxResponseBytes;
  const upstream = forwarder(
    { base, ca: options.ca, timeoutMs, maxResponseBytes },
    base.protocol === "https:" ? [...getCACertificates("default"), ...getCACertificates("system")] : [],
  );
  // The folder is checked and held before the port is taken: a refused folder starts nothing.
  const session = await RecordingSession.open(options);
  const inFlight = new Set<Promise<void>>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = request.method ?? "GET";
    const target = new URL(request.url ?? "/", "http://recorder.invalid");
    const secrets = requestSecrets(request.rawHeaders, target.searchParams);
    const clean = (text: string): string => sanitizeText(redactText(text, secrets));
    const label = `${method} ${target.pathname}`;
    let body: Uint8Array;
    try {
      body = await readBounded(request, maxRequestBytes, `the request body of ${label}`);
    } catch {
      answerProblem(response, 413, "Content Too Large", `The request body is over the recorder's bound of ${maxRequestBytes} bytes; nothing was forwarded.`);
      return;
    }
    let answer: Awaited<ReturnType<typeof upstream.send>>;
    try {
      answer = await upstream.send(method, target.pathname + target.search, request.rawHeaders, body);
    } catch (error) {
      const reason = clean(describe(error));
      session.note(`the upstream did not answer ${clean(label)}: ${reason} (the client got a 502; not counted in the report)`);
      options.log?.(`502 ${clean(label)}: the upstream did not answer (${reason})`);
      answerProblem(response, 502, "Bad Gateway", `The upstream did not answer: ${reason}`);
      return;
    }
    const durationMs = performance.now() - started;
    response.sendDate = false;
    response.writeHead(answer.status, answer.statusMessage, [...answer.rawHeaders]);
    response.end(answer.body);
    // The answer is on its way: the exchange is journaled and read on the next turn, off the client's path.
    await new Promise((resolve) => setImmediate(resolve));
    const judged = session.take({
      method,
      target,
      requestHeaders: request.rawHeaders,
      requestBody: body,
      status: answer.status,
      responseHeaders: answer.rawHeaders,
      responseBody: decodeBody(answer.body, headerOf(answer.rawHeaders, "content-encoding"), maxResponseBytes),
      durationMs,
      origin: base.href.replace(/\/+$/, ""),
    });
    if (judged && options.logExchanges) options.log?.(verdictLine(judged, answer.status));
  };

  // Timeouts of clients are checked at least every second (Node's default is every 30 s).
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, timeoutMs) }, (request, response) => {
    const done = handle(request, response).catch((error: unknown) => {
      options.log?.(`error ${sanitizeText(describe(error))}`);
      if (!response.headersSent) answerProblem(response, 502, "Bad Gateway", "The recorder failed to forward the request.");
      else response.destroy();
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  // Every read of a client is time-limited: its headers and its whole request.
  server.headersTimeout = Math.min(timeoutMs, 60_000);
  server.requestTimeout = timeoutMs;
  server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  try {
    await Promise.race([once(server, "listening"), once(server, "error").then(([error]) => Promise.reject(error as Error))]);
  } catch (error) {
    session.abandon();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  let stopping: Promise<RecordingResult> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    stop() {
      stopping ??= (async () => {
        const closed = once(server, "close");
        server.close();
        server.closeIdleConnections();
        while (inFlight.size > 0) await Promise.all(inFlight);
        await closed;
        upstream.close();
        return await session.finish();
      })();
      return stopping;
    },
  };
}

/** An exchange's line on stderr: operation, status, verdict (and the first problem's pointer). */
function verdictLine(judged: Judged, status: number): string {
  const problems = judged.observations.filter((observation) => !observation.finding);
  const findings = judged.observations.length - problems.length;
  const verdict =
    problems.length > 0
      ? `invalid (${problems.length} problem${problems.length === 1 ? "" : "s"}; first ${problems[0]!.pointer || "(whole exchange)"}: ${problems[0]!.message})`
      : findings > 0
        ? `valid (${findings} finding${findings === 1 ? "" : "s"})`
        : "valid";
  return sanitizeText(`${judged.operationId} ${status} ${verdict}`);
}

/** The first value of a header in a raw list, trimmed and lower-cased, or null. */
function headerOf(raw: readonly string[], name: string): string | null {
  for (let index = 0; index + 1 < raw.length; index += 2) if (raw[index]!.toLowerCase() === name) return raw[index + 1]!.trim().toLowerCase();
  return null;
}

/** A problem body (RFC 9457) from the recorder itself. */
function answerProblem(response: ServerResponse, status: number, title: string, detail: string): void {
  if (response.headersSent) return void response.destroy();
  const body = JSON.stringify({ type: "about:blank", title, status, detail });
  response.writeHead(status, { "Content-Type": "application/problem+json", "Content-Length": Buffer.byteLength(body) });
  response.end(body);
}

/** A failure in one line: its message and its causes'. */
function describe(error: unknown): string {
  const messages: string[] = [];
  for (let cause = error; cause instanceof Error && messages.length < 3; cause = cause.cause) messages.push(cause.message || cause.name);
  return messages.join(": ") || String(error);
}

/** The body decoded from its content encoding (bounded); the bytes as sent when they cannot be decoded. */
function decodeBody(body: Uint8Array, encoding: string | null, maxBytes: number): Uint8Array {
  try {
    const options = { maxOutputLength: maxBytes };
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(body, options);
    if (encoding === "deflate") return inflateSync(body, options);
    if (encoding === "br") return brotliDecompressSync(body, options);
  } catch {
    return body;
  }
  return body;
}
