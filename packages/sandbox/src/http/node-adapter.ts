/**
 * The Node adapter of the one pipeline: Node's `IncomingMessage` read as the transport-neutral request (`context.ts`:
 * the headers the pipeline reads taken from its raw header list in one scan, any other looked up when a part asks
 * for it, the URL made when one asks for it, the body read from the `IncomingMessage` itself, chunks counted), and
 * the pipeline's answer written with one `writeHead` and one `end`; no `Request`, `Headers`, web stream or
 * `Response`, but the `Request` a recording's replay asks for.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Answer } from "../operations/answer.ts";
import { problemAnswer } from "../operations/problem.ts";
import { bodyText, fetchBodyOf, type RequestBody } from "../operations/request.ts";
import { type Handler, RequestContext, type TransportRequest } from "./context.ts";

/** What the adapter answers with: a sandbox's pipeline, and its options (the error media type of its own refusals). */
export interface NodeServed {
  /** Answers a request, in the pipeline's own terms (`http/app.ts`). */
  readonly pipeline: Handler;
  /** Its options, read at each request (its switches may change). */
  readonly options: { readonly errorMediaType: string };
}

/** A request target Node hands over as most clients send it: a path and query of plain characters, no dot segment. */
const plainTarget = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const dotSegment = /\/\.\.?(?:[/?#]|$)/;
/** A Host header as most clients send it: a name or IPv4 address, and a port. */
const plainHost = /^[a-z0-9._-]+(?::\d{1,5})?$/i;

/**
 * The last request target found plain, and the last Host header found valid: a request that repeats them (a load, a
 * client polling) is read without their tests again. Each is what its test answered for that very text.
 */
let lastPlainTarget = "";
let lastValidHost = "";

/** The request target as the pipeline reads it (a path and query, dot segments resolved), or why it cannot be read. */
function targetOf(sent: string, host: string | undefined): { target: string; url?: string } | { refused: string } {
  if (plainTarget.test(sent) && !dotSegment.test(sent)) {
    lastPlainTarget = sent;
    return { target: sent };
  }
  if (sent.startsWith("http://") || sent.startsWith("https://")) {
    // The absolute form (a request to a proxy): its own URL.
    if (!URL.canParse(sent)) return { refused: "The request target is not a valid URL." };
    const url = new URL(sent);
    return { target: `${url.pathname}${url.search}`, url: url.href };
  }
  if (!sent.startsWith("/")) return { refused: "The request target must be a path (starting with /) or an absolute URL." };
  const query = sent.indexOf("?");
  if (sent.lastIndexOf("\\", query < 0 ? sent.length : query) !== -1) return { refused: "The request path must not hold a backslash." };
  if (!URL.canParse(`http://${host ?? "localhost"}${sent}`)) return { refused: "The request target is not a valid path." };
  const url = new URL(`http://${host ?? "localhost"}${sent}`);
  return { target: `${url.pathname}${url.search}` };
}

/** Whether a Host header names a host: a plain name and port, or what a URL reads as one (an IPv6 address in brackets). */
function validHost(host: string): boolean {
  if (host === lastValidHost) return true;
  if (plainHost.test(host)) {
    lastValidHost = host;
    return true;
  }
  if (!URL.canParse(`http://${host}/`)) return false;
  const { hostname, port } = new URL(`http://${host}/`);
  return `${hostname}${port === "" ? "" : `:${port}`}`.toLowerCase() === host.toLowerCase() || hostname === host.toLowerCase();
}

/** Node's request as the pipeline reads it: everything lazily, from its raw header list. */
class NodeRequest implements TransportRequest {
  readonly network = true;
  readonly method: string;
  readonly target: string;
  readonly #incoming: IncomingMessage;
  readonly #outgoing: ServerResponse;
  readonly #read: ReadHeaders;
  #url: string | undefined;
  #raw: Request | undefined;
  #body: NodeBody | undefined;
  #abort: AbortController | undefined;

  constructor(incoming: IncomingMessage, outgoing: ServerResponse, read: ReadHeaders, target: string, url: string | undefined) {
    this.#incoming = incoming;
    this.#outgoing = outgoing;
    this.#read = read;
    this.method = incoming.method ?? "GET";
    this.target = target;
    this.#url = url;
  }

  get url(): string {
    this.#url ??= `http://${this.header("host") ?? "localhost"}${this.target}`;
    return this.#url;
  }

  header(name: string): string | undefined {
    const slot = slotOf(name);
    return slot < 0 ? headerOf(this.#incoming.rawHeaders, name) : this.#read[slot];
  }

  get rawHeaders(): readonly string[] {
    return this.#incoming.rawHeaders;
  }

  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      const abort = new AbortController();
      this.#abort = abort;
      const outgoing = this.#outgoing;
      const gaveUp = () => {
        if (!outgoing.writableFinished) abort.abort();
      };
      if (outgoing.closed) gaveUp();
      else outgoing.once("close", gaveUp);
    }
    return this.#abort.signal;
  }

  get body(): NodeBody {
    this.#body ??= new NodeBody(this, this.#incoming);
    return this.#body;
  }

  /** The `Request` if one was made (a body is then read through it). */
  get rawMade(): Request | undefined {
    return this.#raw;
  }

  /** The request as a Fetch `Request`: its body read through a stream of the `IncomingMessage`, or, when the body was read first, the bytes read. */
  get raw(): Request {
    if (this.#raw === undefined) {
      const headers = new Headers();
      const raw = this.#incoming.rawHeaders;
      for (let index = 0; index < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
      const read = this.#body?.bytesRead;
      const body = this.method === "GET" || this.method === "HEAD" ? null : read === undefined ? bodyStreamOf(this.#incoming) : read;
      this.#raw = new Request(this.url, { method: this.method, headers, body, signal: this.signal, duplex: "half" } as RequestInit);
    }
    return this.#raw;
  }
}

/**
 * A Node request's body, read from its `IncomingMessage`: the chunks as they come, counted, joined once at the end.
 * Past the limit it is answered at once and the rest is read and dropped, so the answer still reaches the client on
 * its open connection; a connection closed before the body's end rejects. Once the replay made a `Request`, the
 * body is read through it.
 */
class NodeBody implements RequestBody {
  readonly #request: NodeRequest;
  readonly #incoming: IncomingMessage;
  /** The bytes read, once read whole (a `Request` made later is built over them); `null` when they were not kept (past the limit, cut off). */
  bytesRead: Uint8Array | null | undefined;

  constructor(request: NodeRequest, incoming: IncomingMessage) {
    this.#request = request;
    this.#incoming = incoming;
  }
  get contentType(): string | undefined {
    return this.#request.header("content-type");
  }
  get contentLength(): string | undefined {
    return this.#request.header("content-length");
  }
  get present(): boolean {
    const length = this.contentLength;
    return length !== undefined ? length !== "0" : this.#request.header("transfer-encoding") !== undefined;
  }
  read(maxBytes: number): Promise<string | undefined> {
    const raw = this.#request.rawMade;
    if (raw !== undefined) return fetchBodyOf(raw).read(maxBytes);
    this.bytesRead = null;
    const incoming = this.#incoming;
    if (incoming.readableEnded) return Promise.resolve("");
    if (incoming.destroyed) return Promise.reject(new Error(cutOffMessage));
    return new Promise((resolve, reject) => {
      let first: Buffer | undefined;
      let chunks: Buffer[] | undefined;
      let size = 0;
      let over = false;
      let ended = false;
      const onData = (chunk: Buffer) => {
        if (over) return;
        size += chunk.byteLength;
        if (size > maxBytes) {
          // Answered at once; the rest is read and dropped (the listener stays, so the stream keeps flowing).
          over = true;
          first = chunks = undefined;
          resolve(undefined);
        } else if (first === undefined) first = chunk;
        else (chunks ??= [first]).push(chunk);
      };
      // Settled once: a later event (the close after the end, the end after the limit) changes nothing, so no listener
      // is taken off (they go with the request).
      const onEnd = () => {
        ended = true;
        if (over) return;
        // One chunk (the usual small body) is decoded as it is; more are joined once.
        const bytes = chunks !== undefined ? Buffer.concat(chunks, size) : (first ?? noBytes);
        this.bytesRead = bytes;
        resolve(bodyText(bytes));
      };
      const onClose = () => {
        if (!ended) reject(new Error(cutOffMessage));
      };
      incoming.on("data", onData);
      incoming.on("end", onEnd);
      incoming.on("close", onClose);
      incoming.on("error", onClose);
    });
  }
}

const noBytes = new Uint8Array(0);
const cutOffMessage = "The client stopped sending the request body.";

/**
 * A request body as a stream, pulled from Node's request as it is read. A reader that stops reading (a body over its
 * route's limit) cancels it: the rest is read and dropped, so the answer still reaches the client on its open
 * connection.
 */
function bodyStreamOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  const onData = (chunk: Buffer) => {
    controller!.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller!.desiredSize ?? 0) <= 0) incoming.pause();
  };
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
      incoming.on("data", onData);
      incoming.once("end", () => {
        settled = true;
        given.close();
      });
      incoming.once("close", () => {
        if (settled || incoming.readableEnded) return;
        settled = true;
        given.error(new Error(cutOffMessage));
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      settled = true;
      incoming.off("data", onData);
      incoming.resume();
    },
  });
}

/** Answers one request of Node's server through the pipeline. */
export function answerNode(sandbox: NodeServed, incoming: IncomingMessage, outgoing: ServerResponse): void {
  const read = readHeaders(incoming.rawHeaders);
  const host = read[firstHostSlot];
  const sent = incoming.url ?? "";
  let request: NodeRequest;
  if (sent === lastPlainTarget && (host === undefined || host === lastValidHost)) request = new NodeRequest(incoming, outgoing, read, sent, undefined);
  else {
    const target = host !== undefined && !validHost(host) ? { refused: "The Host header is not a host name." } : targetOf(sent, host);
    if ("refused" in target) {
      // A request the pipeline cannot read: refused here, before any part of it (never a 500).
      writeAnswer(outgoing, problemAnswer(sandbox.options.errorMediaType, 400, target.refused), noHeaders, sandbox.options.errorMediaType);
      return;
    }
    request = new NodeRequest(incoming, outgoing, read, target.target, target.url);
  }
  const c = new RequestContext(request);
  let answered: Answer | Promise<Answer>;
  try {
    answered = sandbox.pipeline(c);
  } catch (error) {
    answered = Promise.reject(error);
  }
  const { errorMediaType } = sandbox.options;
  if (!(answered instanceof Promise)) return writeAnswer(outgoing, answered, c.answerHeaders, errorMediaType);
  answered.then(
    (answer) => writeAnswer(outgoing, answer, c.answerHeaders, errorMediaType),
    (error: unknown) => {
      // The pipeline answers its errors itself (http/app.ts); this is a last resort, never a request's headers logged.
      console.error("sandbox: internal error:", error);
      writeAnswer(outgoing, problemAnswer(errorMediaType, 500, "Internal error of the sandbox."), noHeaders, errorMediaType);
    },
  );
}

/**
 * The headers the pipeline reads of most requests, by their names in lower case, each in its place (see `slotOf`):
 * the Host guard's and the URL's `host`, the security's `x-token` and `authorization`, the request id's
 * `x-request-id`, CORS's and the guard's `origin`, and the body's `content-type`, `content-length` and
 * `transfer-encoding`; a repeated header's values joined by `, `, as `Headers` joins them; and in the last place
 * the first Host header's value (the one Node's server reads). Read from Node's raw list in one scan when the request
 * comes in, into one array, rather than the list scanned again (and a name whose case differs lower-cased again) for
 * each part that asks: about five scans of a search.
 */
function readHeaders(raw: readonly string[]): ReadHeaders {
  const values: ReadHeaders = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];
  for (let index = 0; index < raw.length; index += 2) {
    const slot = slotOf(raw[index]!);
    if (slot < 0) continue;
    const value = raw[index + 1]!;
    const before = values[slot];
    if (before === undefined) {
      values[slot] = value;
      if (slot === hostSlot) values[firstHostSlot] = value;
    } else values[slot] = `${before}, ${value}`;
  }
  return values;
}

/** What `readHeaders` read: each header's value (or `undefined`) by its place, the first Host's last. */
type ReadHeaders = (string | undefined)[];

/** The place of the first Host header's value in `ReadHeaders`. */
const firstHostSlot = 8;
const hostSlot = 0;

/** The place of a header read in one scan (`readHeaders`), by its name as sent in any case, or -1 for another header. */
function slotOf(name: string): number {
  switch (name.length) {
    case 4:
      return sameName(name, "host") ? hostSlot : -1;
    case 6:
      return sameName(name, "origin") ? 4 : -1;
    case 7:
      return sameName(name, "x-token") ? 1 : -1;
    case 12: {
      const lower = name === "x-request-id" || name === "content-type" ? name : name.toLowerCase();
      return lower === "x-request-id" ? 3 : lower === "content-type" ? 5 : -1;
    }
    case 13:
      return sameName(name, "authorization") ? 2 : -1;
    case 14:
      return sameName(name, "content-length") ? 6 : -1;
    case 17:
      return sameName(name, "transfer-encoding") ? 7 : -1;
    default:
      return -1;
  }
}

/** Whether a header's name as sent is `lower` (a name in lower case) in any case. */
function sameName(sent: string, lower: string): boolean {
  return sent === lower || sent.toLowerCase() === lower;
}

/** A header no part reads on most requests (`accept`, a preflight's), by its name in lower case, from the raw list. */
function headerOf(raw: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const sent = raw[index]!;
    if (sent.length === name.length && sameName(sent, name)) found = found === undefined ? raw[index + 1]! : `${found}, ${raw[index + 1]!}`;
  }
  return found;
}

const noHeaders: readonly string[] = Object.freeze([]);

/**
 * Writes an answer: one `writeHead` (its headers, those the pipeline added, and the length of its body) and one
 * `end`. A header Node refuses (a value it cannot send) is the sandbox's mistake: answered 500, logged without the
 * request's headers.
 */
function writeAnswer(outgoing: ServerResponse, answer: Answer, added: readonly string[], mediaType: string): void {
  try {
    writeHeadAndEnd(outgoing, answer, added);
  } catch (error) {
    console.error("sandbox: internal error:", error);
    if (!outgoing.headersSent && !outgoing.destroyed) writeHeadAndEnd(outgoing, problemAnswer(mediaType, 500, "Internal error of the sandbox."), noHeaders);
  }
}

function writeHeadAndEnd(outgoing: ServerResponse, answer: Answer, added: readonly string[]): void {
  if (outgoing.headersSent || outgoing.destroyed) return;
  const head = headOf(answer);
  if (added.length === 0) outgoing.writeHead(answer.status, head);
  else {
    // A copy and a push per header (usually the request id): `concat` takes V8's runtime, a copy of a plain list does not.
    const headers = head.slice();
    for (const text of added) headers.push(text);
    outgoing.writeHead(answer.status, headers);
  }
  outgoing.end(answer.body ?? undefined);
}

/** The last answer written and its head (see `headOf`): a page answered again (a kept search page) is the same answer. */
let lastAnswer: Answer | undefined;
let lastHead: string[] = [];

/**
 * An answer's headers with the length of its body, as `writeHead` takes them (a flat list), made once for an answer
 * written again and again (an answer never changes once made).
 */
function headOf(answer: Answer): string[] {
  if (answer === lastAnswer) return lastHead;
  const { body, status } = answer;
  const head = answer.headers.slice();
  if (body !== null) head.push("content-length", String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength));
  else if (status !== 204 && status !== 304 && status >= 200) head.push("content-length", "0");
  lastAnswer = answer;
  lastHead = head;
  return head;
}
