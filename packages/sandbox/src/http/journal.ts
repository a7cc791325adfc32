/** The request journal: what the sandbox received over its service operations (`GET /_sandbox/requests`). */
import { sandboxSecretHeaders } from "../description.ts";
import { parseJson } from "../json.ts";
import { type BodyRead, bodyRead, type RequestBody, readText } from "../operations/request.ts";

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
  /** Request headers, names in lower case, without the secret ones (`x-token`, `authorization`, `cookie`, ...). */
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
  /** The request target: its path and query as sent (the URL is made only when the journal is read). */
  readonly target: string;
  /** Its path, without the query. */
  readonly path: string;
  /**
   * The request's headers: a `Headers`, or Node's raw list (name, value, name, value…) where the server
   * has it (reading a `Headers` of Node's request makes the server build it). The journal packs them in one string.
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

/**
 * A request as kept, in one slot of the journal's ring (thousands are kept at once): its headers packed in one string
 * and its body's text or note held directly, rather than a list of a dozen header strings and the wrappers around it.
 * A slot is made once and written again for each request that takes its place (see `RequestJournal`).
 */
class Kept {
  sequence = 0;
  operationId: string | undefined = undefined;
  /** Its size in characters (see `maxRecordedText`). */
  size = 0;
  receivedAt = 0;
  method = "";
  /** The request target (path and query as sent). */
  target = "";
  path = "";
  /** Header names and values in the order received, joined by line breaks (see `packedHeaders`). */
  headers = "";
  /** The body's text, or the note kept in its place, or `null` for none. */
  body: string | null = null;
  /** Whether `body` is a note. */
  bodyIsNote = false;
  status = 0;
  durationMs = 0;
}

/**
 * The journal of requests received (the service's operations; the control API's own requests are not kept), in a
 * ring of slots: a slot is made for each of the first `maxRecordedRequests` requests, and from then on a request is
 * written into the slot of the oldest, which it drops. A busy sandbox then keeps its requests with no object made per
 * request, so nothing of the journal is promoted to the old generation, and nothing dropped is left there to collect.
 */
export class RequestJournal {
  /** The slots, oldest first from `#first` (wrapping around): at most `maxRecordedRequests`. */
  #slots: Kept[] = [];
  #first = 0;
  #count = 0;
  #sequence = 0;
  #dropped = 0;
  #size = 0;

  /** The texts of the last request kept, shared by the next one that repeats them (see `add`). */
  #last: { rawHeaders: readonly string[] | undefined; headers: string; target: string; path: string } = {
    rawHeaders: undefined,
    headers: "",
    target: "",
    path: "",
  };

  /**
   * Adds a request, dropping the oldest beyond `maxRecordedRequests` or `maxRecordedText`. A request that repeats the
   * last one's headers, target or path (a client polling, a load) keeps the last one's strings rather than its own: the
   * journal then holds no new text, so a busy sandbox's old generation barely grows (its own copies, kept 10,000
   * requests, were promoted out of the young generation and made V8 run a full mark-compact every few scavenges: about
   * 12% of a search's CPU, `bench/search-profile.md`).
   */
  add(request: ReceivedRequest, operationId: string | undefined): void {
    const last = this.#last;
    const raw = request.headers;
    let headers: string;
    if (isRawHeaders(raw) && last.rawHeaders !== undefined && sameStrings(raw, last.rawHeaders)) headers = last.headers;
    else {
      headers = packedHeaders(raw);
      // A `Headers` (the Fetch transport's) is packed each time: only a raw list is compared.
      last.rawHeaders = isRawHeaders(raw) ? raw : undefined;
      last.headers = headers;
    }
    if (request.target !== last.target) last.target = request.target;
    if (request.path !== last.path) last.path = request.path;
    const { body } = request;
    const bodyText = body === null ? null : "text" in body ? body.text : body.note;
    const size = 256 + last.target.length + headers.length + (bodyText?.length ?? 0);
    const slot = this.#freeSlot();
    slot.sequence = ++this.#sequence;
    slot.operationId = operationId;
    slot.size = size;
    slot.receivedAt = request.receivedAt;
    slot.method = request.method;
    slot.target = last.target;
    slot.path = last.path;
    slot.headers = headers;
    slot.body = bodyText;
    slot.bodyIsNote = body !== null && "note" in body;
    slot.status = request.status;
    slot.durationMs = request.durationMs;
    this.#count++;
    this.#size += size;
    while (this.#size > maxRecordedText && this.#count > 1) this.#dropOldest();
  }

  /** The slot the next request is written into: the oldest one's once every slot is taken (it is dropped), else a free or a new one. */
  #freeSlot(): Kept {
    const slots = this.#slots;
    if (this.#count === maxRecordedRequests) this.#dropOldest();
    if (this.#count < slots.length) return slots[(this.#first + this.#count) % slots.length]!;
    // Every slot made holds a request: one more is made, after the newest (the ring is put in order first, if it wraps).
    if (this.#first !== 0) {
      this.#slots = [...slots.slice(this.#first), ...slots.slice(0, this.#first)];
      this.#first = 0;
    }
    const slot = new Kept();
    this.#slots.push(slot);
    return slot;
  }

  /** Drops the oldest request: its slot lets go of its texts (so what `maxRecordedText` bounds is freed) and is free. */
  #dropOldest(): void {
    const slot = this.#slots[this.#first]!;
    this.#size -= slot.size;
    slot.headers = slot.target = slot.path = "";
    slot.body = null;
    this.#first = (this.#first + 1) % this.#slots.length;
    this.#count--;
    this.#dropped++;
  }

  /** The requests kept, oldest first. */
  #kept(): Kept[] {
    const slots = this.#slots;
    return Array.from({ length: this.#count }, (_, index) => slots[(this.#first + index) % slots.length]!);
  }

  /** The requests matching the filter, oldest first. */
  list(filter: RequestFilter = {}): RequestRecord[] {
    return this.#kept()
      .filter(
        (record) =>
          (filter.method === undefined || record.method === filter.method.toUpperCase()) &&
          (filter.path === undefined || record.path === filter.path) &&
          (filter.status === undefined || record.status === filter.status) &&
          (filter.operationId === undefined || record.operationId === filter.operationId),
      )
      .map((record) => ({
        sequence: record.sequence,
        receivedAt: new Date(record.receivedAt).toISOString(),
        method: record.method,
        path: record.path,
        query: Object.fromEntries(new URL(`${targetOrigin}${record.target}`).searchParams),
        headers: journalHeaders(record.headers === "" ? [] : record.headers.split("\n")),
        body: record.bodyIsNote ? record.body : bodyOf(record.body),
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
    this.#slots = [];
    this.#first = 0;
    this.#count = 0;
    this.#dropped = 0;
    this.#size = 0;
  }
}

/** The origin a kept target is read with to make its URL, as the transport made it (only its query is shown: the host changes nothing of it). */
const targetOrigin = "http://localhost";

/** Headers packed in one string: names and values joined by line breaks, which neither may hold (HTTP and `Headers` refuse one). */
function packedHeaders(headers: Headers | readonly string[]): string {
  if (isRawHeaders(headers)) return headers.join("\n");
  const parts: string[] = [];
  headers.forEach((value, name) => {
    parts.push(name, value);
  });
  return parts.join("\n");
}

/** A kept body's text as the journal shows it: JSON when it parses, its text otherwise, or `null`. */
function bodyOf(text: string | null): unknown {
  if (text === null) return null;
  // JSON nested past the sandbox's limit is shown as text, as invalid JSON is: it could not be served back as JSON.
  const parsed = parseJson(text, "The body");
  return parsed.ok ? parsed.value : text;
}

/**
 * Request headers as the journal shows them, from a list of names and values (name, value, name, value…):
 * names in lower case and in order, a repeated name's values joined as `Headers` joins them, the secret ones
 * (`sandboxSecretHeaders`: `x-token`, `authorization`, `proxy-authorization`, `cookie`, `set-cookie`) left out.
 */
function journalHeaders(headers: readonly string[]): Record<string, string> {
  const joined = new Map<string, string>();
  for (let index = 0; index < headers.length; index += 2) {
    const name = headers[index]!.toLowerCase();
    const value = headers[index + 1]!;
    const before = joined.get(name);
    joined.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  for (const name of sandboxSecretHeaders) joined.delete(name);
  return Object.fromEntries([...joined].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Whether two lists hold the same strings in the same order. */
function sameStrings(one: readonly string[], other: readonly string[]): boolean {
  if (one.length !== other.length) return false;
  for (let index = 0; index < one.length; index++) if (one[index] !== other[index]) return false;
  return true;
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
export async function bodyForJournal(body: RequestBody): Promise<JournalBody> {
  return journalBodyOf(
    bodyRead(body) ??
      (await readText(body, maxJournalBodyBytes).then(
        (text) => bodyRead(body) ?? { text: text ?? "" },
        () => bodyRead(body),
      )),
  );
}

/** What the journal keeps of a body read (see `bodyForJournal`): its text up to 64 KiB, a note, or `null` for an empty one. */
export function journalBodyOf(read: BodyRead | undefined): JournalBody {
  if (read === undefined || "aborted" in read) return { note: "(a body that could not be read: the client stopped sending it)" };
  if ("over" in read || read.text.length > maxJournalBodyBytes) return { note: `(a body over ${maxJournalBodyBytes} bytes: not kept)` };
  return read.text === "" ? null : { text: read.text };
}
