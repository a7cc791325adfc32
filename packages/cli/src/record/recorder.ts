/**
 * The recorder: a transparent proxy in front of the real service. Each request is forwarded as sent
 * and the upstream's status, headers and body are answered as they came (byte for byte); then the
 * exchange is validated (`validation.ts`), counted (`report.ts`), read for open points
 * (`open-points.ts`) and entities (`entities.ts`). On `stop`, the files are written: `report.json`,
 * `report.md`, `fixture.json`, `switches.json`, `open-points.json`. No token, cookie or
 * `Authorization` value is ever kept in a file or a log line; end users' words and names are
 * pseudonymised unless `keepTexts`.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getCACertificates } from "node:tls";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { defaultMaxResponseBytes } from "@bot-conversation/client";
import { redactJson, redactText, sanitizeText } from "@bot-conversation/client/text";
import { loadDescription } from "@bot-conversation/conformance";
import type { ConversationSummary } from "@bot-conversation/types";
import { RecordedEntities } from "./entities.js";
import { type RecordedExchange, secretQueryParameter } from "./exchange.js";
import { forwarder, readBounded } from "./forward.js";
import { OpenPoints } from "./open-points.js";
import { summaryPseudonymizer } from "./pseudonyms.js";
import { markdownReport, ReportBuilder, undocumentedOperation } from "./report.js";
import { ExchangeValidator } from "./validation.js";

/** What the recorder forwards to, where it listens and what it writes. */
export interface RecorderOptions {
  /** The real service's base URL (`https://bots.example.com`); its path is kept as a prefix. */
  readonly upstream: string;
  /** The folder the files are written to (made when missing). */
  readonly out: string;
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; 0 (the default) takes any free port. */
  readonly port?: number;
  /** Key of the pseudonyms; the same salt gives the same pseudonyms. Default: a random one for this recording. */
  readonly salt?: string;
  /** Extra CA certificates (PEM text) trusted for an HTTPS upstream, besides Node's and the system's. */
  readonly ca?: string;
  /** Write end users' texts and names as they are (for data you own). */
  readonly keepTexts?: boolean;
  /** More fields to pseudonymise: JSON pointers into a conversation summary, `*` for any array index. */
  readonly personal?: readonly string[];
  /** Bound of every read of the upstream and of the client, in milliseconds; default 60,000 (the client's per-attempt default). */
  readonly timeoutMs?: number;
  /** Largest request body read from a client; default 1 MiB (our choice: a fire request is far smaller). */
  readonly maxRequestBytes?: number;
  /** Largest upstream body read; default the client's `defaultMaxResponseBytes` (16 MiB). */
  readonly maxResponseBytes?: number;
  /** Receives one line per request the upstream did not answer (sanitized, redacted). */
  readonly log?: (line: string) => void;
}

/** What a recording wrote. */
export interface RecordingResult {
  /** Exchanges recorded (answered by the upstream). */
  readonly exchanges: number;
  /** The files written, by name. */
  readonly files: readonly string[];
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

/** Request headers whose values are secrets: never kept, and redacted wherever they would appear. */
const secretHeaders = new Set(["x-token", "authorization", "proxy-authorization", "cookie"]);

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
  const secrets = new Set<string>();
  const salt = options.salt ?? randomBytes(32).toString("hex");
  const pseudonymize = options.keepTexts ? <T>(value: T) => value : summaryPseudonymizer(salt, options.personal ?? []);
  const validator = new ExchangeValidator(loadDescription());
  const report = new ReportBuilder();
  const openPoints = new OpenPoints();
  const entities = new RecordedEntities();
  const unanswered: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let exchanges = 0;
  const clean = (text: string): string => sanitizeText(redactText(text, secrets));

  /** Reads what an answered exchange shows (after its answer is on its way). */
  const record = (exchange: RecordedExchange): void => {
    exchanges += 1;
    const operation = validator.match(exchange.method, exchange.path);
    // The open points first: the page base a first page shows is the one its envelope is checked by.
    openPoints.observe(operation?.id, exchange);
    const pageBase = Number(openPoints.switches().pageBase ?? 0);
    report.add(operation?.id ?? undocumentedOperation, exchange.status, validator.observe(exchange, operation, { pageBase, decisions: {} }), secrets);
    if (operation?.id === "searchConversations" && exchange.status === 200 && Array.isArray((exchange.json as { items?: unknown })?.items)) {
      const items = (exchange.json as { items: ConversationSummary[] }).items.map((item) => pseudonymize(redactJson(item, secrets)));
      entities.search(exchange.query["agentStageId"], items);
    }
    if (operation?.id === "listExternalEventTriggers" && exchange.status === 200)
      entities.triggers(operation.pathParameters["agentStageId"]!, redactJson(exchange.json, secrets));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const method = request.method ?? "GET";
    const target = new URL(request.url ?? "/", "http://recorder.invalid");
    for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
      if (secretHeaders.has(request.rawHeaders[index]!.toLowerCase()))
        remember(secrets, request.rawHeaders[index + 1]!, request.rawHeaders[index]!.toLowerCase());
    }
    const query: Record<string, string> = {};
    for (const [name, value] of target.searchParams) {
      if (secretQueryParameter(name)) remember(secrets, value);
      else query[name] = value;
    }
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
      unanswered.push(`${label}: ${reason}`);
      options.log?.(`502 ${clean(label)}: the upstream did not answer (${reason})`);
      answerProblem(response, 502, "Bad Gateway", `The upstream did not answer: ${reason}`);
      return;
    }
    for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
      if (answer.rawHeaders[index]!.toLowerCase() === "set-cookie") remember(secrets, answer.rawHeaders[index + 1]!, "set-cookie");
    }
    response.sendDate = false;
    response.writeHead(answer.status, answer.statusMessage, [...answer.rawHeaders]);
    response.end(answer.body);
    // The answer is on its way: what it shows is read on the next turn, off the client's path.
    await new Promise((resolve) => setImmediate(resolve));
    const headers = new Headers();
    for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) headers.append(answer.rawHeaders[index]!, answer.rawHeaders[index + 1]!);
    const decoded = decodeBody(answer.body, headers.get("content-encoding"), maxResponseBytes);
    const requestText = new TextDecoder().decode(body);
    record({
      method,
      path: target.pathname,
      query,
      hasRequestBody: body.length > 0,
      requestJson: parseJson(requestText),
      status: answer.status,
      headers,
      ...decoded,
    });
  };

  // Timeouts of clients are checked at least every second (Node's default is every 30 s).
  const server = createServer({ connectionsCheckingInterval: Math.min(1000, timeoutMs) }, (request, response) => {
    const done = handle(request, response).catch((error: unknown) => {
      options.log?.(`error ${clean(describe(error))}`);
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
  await Promise.race([once(server, "listening"), once(server, "error").then(([error]) => Promise.reject(error as Error))]);
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
        await mkdir(options.out, { recursive: true });
        let fixture: Awaited<ReturnType<typeof entities.write>>;
        try {
          fixture = await entities.write(join(options.out, "fixture.json"));
        } finally {
          entities.discard();
        }
        const built = report.report();
        const switches = openPoints.switches();
        const evidence = openPoints.evidence();
        const write = (name: string, text: string) => writeFile(join(options.out, name), redactText(text, secrets));
        await write("report.json", `${JSON.stringify(built, null, 2)}\n`);
        await write("switches.json", `${JSON.stringify(switches, null, 2)}\n`);
        await write(
          "open-points.json",
          `${JSON.stringify(Object.fromEntries(evidence.map(({ key, flag, shown }) => [key, { value: shown.value, flag: `--${flag}`, exchange: shown.exchange, shownBy: shown.shownBy }])), null, 2)}\n`,
        );
        const flags = evidence.map(({ flag, shown }) => `--${flag} ${shellWord(String(shown.value))}`).join(" ");
        await write(
          "report.md",
          markdownReport(built, {
            switches: evidence.map(({ flag, shown }) => `--${flag} ${shown.value}: ${shown.exchange} (${shown.shownBy})`),
            // Relative to the recording's folder, so two recordings of the same traffic write the same bytes wherever they are.
            replay: `bot-conversation-sandbox --fixture fixture.json${flags ? ` ${flags}` : ""}`,
            fixture: `fixture.json: ${fixture.bots} bot(s), ${fixture.triggers} trigger(s), ${fixture.conversations} conversation(s)${options.keepTexts ? ", texts and names as sent" : ", end users' texts and names pseudonymised"}; switches.json: ${evidence.length} switch(es), each with the exchange that showed it in open-points.json.`,
            notes: [
              ...fixture.leftOut.map((line) => `left out of the fixture: ${line}`),
              ...openPoints.notes(),
              ...unanswered.map((line) => `the upstream did not answer ${line} (the client got a 502; not counted in the report)`),
            ],
          }),
        );
        return { exchanges, files: ["report.json", "report.md", "fixture.json", "switches.json", "open-points.json"] };
      })();
      return stopping;
    },
  };
}

/**
 * Keeps the secrets of a header value to redact: the whole value and its credential (`Bearer abc`: `abc`;
 * a `Cookie`'s every value; a `Set-Cookie`'s own value, not its attributes). An empty value hides nothing.
 */
function remember(secrets: Set<string>, value: string, header = ""): void {
  const trimmed = value.trim();
  if (!trimmed) return;
  secrets.add(trimmed);
  const pairs =
    header === "set-cookie" ? [trimmed.split(";")[0]!] : header === "cookie" ? trimmed.split(";") : [trimmed.replace(/^(bearer|basic|token)\s+/i, "")];
  for (const pair of pairs) {
    const credential = (pair.includes("=") && header.includes("cookie") ? pair.slice(pair.indexOf("=") + 1) : pair).trim();
    if (credential) secrets.add(credential);
  }
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

/** JSON text parsed, or undefined. */
function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The body as the recording reads it: decoded from its content encoding (bounded), as text, and as JSON. */
function decodeBody(body: Uint8Array, encoding: string | null, maxBytes: number): Pick<RecordedExchange, "text" | "json" | "isJson" | "invalidUtf8"> {
  let bytes = body;
  try {
    const options = { maxOutputLength: maxBytes };
    if (encoding === "gzip" || encoding === "x-gzip") bytes = gunzipSync(body, options);
    else if (encoding === "deflate") bytes = inflateSync(body, options);
    else if (encoding === "br") bytes = brotliDecompressSync(body, options);
  } catch {
    return { text: "", json: undefined, isJson: false, invalidUtf8: false };
  }
  let text: string;
  let invalidUtf8 = false;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    invalidUtf8 = true;
    text = new TextDecoder().decode(bytes);
  }
  const json = parseJson(text);
  return { text, json, isJson: json !== undefined, invalidUtf8 };
}

/** A word for a POSIX shell, quoted when it needs to be. */
const shellWord = (text: string): string => (/^[\w./:@%+=-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);
