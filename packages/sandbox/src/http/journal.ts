/** The request journal: what the sandbox received over its service operations (`GET /_sandbox/requests`). */
import { parseJson } from "../json.ts";
import { bodyRead, readText } from "./request.ts";

/** One request the sandbox received, as the request journal keeps it. */
export interface RequestRecord {
  /** Order of arrival, from 1. */
  readonly sequence: number;
  /** When it was received, ISO 8601 in UTC. */
  readonly receivedAt: string;
  /** HTTP method. */
  readonly method: string;
  /** Path, without the query. */
  readonly path: string;
  /** Query parameters as sent (a repeated name keeps its last value in `query`; every value is in the path's order). */
  readonly query: Record<string, string>;
  /** Request headers, names in lower case, without `x-token`. */
  readonly headers: Record<string, string>;
  /** The body as JSON when it parses, as text otherwise, or `null`. */
  readonly body: unknown;
  /** The status answered. */
  readonly status: number;
  /** Milliseconds from receipt to answer. */
  readonly durationMs: number;
}

/** A filter of the request journal: every field given must match. */
export interface RequestFilter {
  /** HTTP method, any case. */
  readonly method?: string | undefined;
  /** Exact path. */
  readonly path?: string | undefined;
  /** Status answered. */
  readonly status?: number | undefined;
  /** An operation of the service, by its `operationId`. */
  readonly operationId?: string | undefined;
}

/** Requests kept at most; the oldest are dropped beyond it, and the count of dropped ones is kept. The sandbox's choice. */
export const maxRecordedRequests = 10_000;

/**
 * What the kept requests may hold together, in characters of text (URL, headers, body): 16 Mi, so at
 * most 32 MiB of memory; the oldest requests are dropped beyond it, as beyond `maxRecordedRequests`.
 * The sandbox's choice.
 */
export const maxRecordedText = 16 * 1024 * 1024;

/** A request as the journal takes it in: what the record is made of, when it is read. */
export interface ReceivedRequest {
  /** Epoch milliseconds of receipt. */
  readonly receivedAt: number;
  /** HTTP method. */
  readonly method: string;
  /** The full URL. */
  readonly url: string;
  /** Its path, without the query. */
  readonly path: string;
  /**
   * The request's headers: a `Headers`, or Node's raw list (name, value, name, value…) where the server
   * has it: a `Headers` of Node's request keeps the whole request alive as long as the journal keeps it.
   */
  readonly headers: Headers | readonly string[];
  /** The body as the journal keeps it (see `bodyForJournal`): text, a note, or `null`. */
  readonly body: JournalBody;
  /** The status answered. */
  readonly status: number;
  /** Milliseconds from receipt to answer. */
  readonly durationMs: number;
}

/** A body as kept: its text (at most `maxJournalBodyBytes`), a note saying why it is not kept, or `null` for none. */
export type JournalBody = { readonly text: string } | { readonly note: string } | null;

/** A request as kept: what was received, its order of arrival, the operation it was routed to, and its size in characters. */
interface Kept {
  readonly request: ReceivedRequest;
  readonly sequence: number;
  readonly operationId: string | undefined;
  readonly size: number;
}

/** The journal of requests received (the service's operations; the control API's own requests are not kept). */
export class RequestJournal {
  /** Oldest first from `#start`: dropping the oldest moves `#start`, and the array is compacted now and then. */
  #records: Kept[] = [];
  #start = 0;
  #sequence = 0;
  #dropped = 0;
  #size = 0;

  /** Adds a request, dropping the oldest beyond `maxRecordedRequests` or `maxRecordedText`. */
  add(request: ReceivedRequest, operationId: string | undefined): void {
    const size = textSize(request);
    this.#records.push({ request, sequence: ++this.#sequence, operationId, size });
    this.#size += size;
    while (this.#records.length - this.#start > maxRecordedRequests || (this.#size > maxRecordedText && this.#records.length - this.#start > 1)) {
      this.#size -= this.#records[this.#start]!.size;
      this.#records[this.#start++] = undefined as unknown as Kept;
      this.#dropped++;
    }
    if (this.#start > 4096 && this.#start * 2 > this.#records.length) {
      this.#records = this.#records.slice(this.#start);
      this.#start = 0;
    }
  }

  /** The requests matching the filter, oldest first. */
  list(filter: RequestFilter = {}): RequestRecord[] {
    return this.#records.slice(this.#start)
      .filter(({ request: record, operationId }) =>
        (filter.method === undefined || record.method === filter.method.toUpperCase()) &&
        (filter.path === undefined || record.path === filter.path) &&
        (filter.status === undefined || record.status === filter.status) &&
        (filter.operationId === undefined || operationId === filter.operationId))
      .map(({ request: record, sequence }) => ({
        sequence,
        receivedAt: new Date(record.receivedAt).toISOString(),
        method: record.method,
        path: record.path,
        query: Object.fromEntries(new URL(record.url).searchParams),
        headers: journalHeaders(record.headers),
        body: bodyOf(record.body),
        status: record.status,
        durationMs: Math.round(record.durationMs * 1000) / 1000,
      }));
  }

  /** How many of the oldest requests were dropped to keep within `maxRecordedRequests` and `maxRecordedText`. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Forgets every request. */
  clear(): void {
    this.#records = [];
    this.#start = 0;
    this.#dropped = 0;
    this.#size = 0;
  }
}

/** The characters a request holds in the journal: its URL, headers and body, and a little for the rest. */
function textSize(request: ReceivedRequest): number {
  let size = 256 + request.url.length + (request.body === null ? 0 : "text" in request.body ? request.body.text.length : request.body.note.length);
  if (isRawHeaders(request.headers)) for (const part of request.headers) size += part.length;
  else request.headers.forEach((value, name) => void (size += name.length + value.length));
  return size;
}

/** A kept body as the journal shows it: JSON when it parses, its text otherwise, the note, or `null`. */
function bodyOf(body: JournalBody): unknown {
  if (body === null) return null;
  if ("note" in body) return body.note;
  // JSON nested past the sandbox's limit is shown as text, as invalid JSON is: it could not be served back as JSON.
  const parsed = parseJson(body.text, "The body");
  return parsed.ok ? parsed.value : body.text;
}

/** Request headers as the journal keeps them: names in lower case and in order, a repeated name's values joined as `Headers` joins them, `x-token` left out. */
export function journalHeaders(headers: Headers | readonly string[]): Record<string, string> {
  const pairs: [string, string][] = [];
  if (isRawHeaders(headers)) {
    const joined = new Map<string, string>();
    for (let index = 0; index < headers.length; index += 2) {
      const name = headers[index]!.toLowerCase();
      const value = headers[index + 1]!;
      const before = joined.get(name);
      joined.set(name, before === undefined ? value : `${before}, ${value}`);
    }
    pairs.push(...[...joined].sort(([a], [b]) => (a < b ? -1 : 1)));
  } else {
    headers.forEach((value, name) => void pairs.push([name, value]));
  }
  return Object.fromEntries(pairs.filter(([name]) => name !== "x-token"));
}

function isRawHeaders(headers: Headers | readonly string[]): headers is readonly string[] {
  return Array.isArray(headers);
}

/** Bodies the journal keeps whole; a larger one is noted by its size. */
export const maxJournalBodyBytes = 64 * 1024;

/** The note kept in place of the body of a request the token check refused. */
export const refusedBodyNote = "(the body of a request without a valid token: not kept)";

/**
 * A request body as the journal keeps it, once the request is answered: what the route read (its text up
 * to 64 KiB, or a note), or, when the route read nothing (a fault, a 405), the body read now up to 64 KiB;
 * `null` for none.
 */
export async function bodyForJournal(request: Request): Promise<JournalBody> {
  const read = bodyRead(request) ?? (await readText(request, maxJournalBodyBytes).then((text) => bodyRead(request) ?? { text: text ?? "" }, () => bodyRead(request)));
  if (read === undefined || "aborted" in read) return { note: "(a body that could not be read: the client stopped sending it)" };
  if ("over" in read || read.text.length > maxJournalBodyBytes) return { note: `(a body over ${maxJournalBodyBytes} bytes: not kept)` };
  return read.text === "" ? null : { text: read.text };
}
