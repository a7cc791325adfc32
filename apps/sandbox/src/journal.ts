import { parseJson, readText } from "./request.ts";

/** An external event the sandbox accepted. */
export interface FiredEventRecord {
  /** When it was received, ISO 8601 in UTC. */
  readonly receivedAt: string;
  /** Both identifiers as sent. */
  readonly sent: { readonly conversationId: string | null; readonly externalConversationId: string | null };
  /** The external event fired. */
  readonly externalEventId: string;
  /** The payload as sent, or `null`. */
  readonly externalEventPayload: Record<string, unknown> | null;
  /** The conversation the event resolved to. */
  readonly conversationId: string;
}

/** What keeps the journal of fired events beyond the process (the `--data` file), told of every change. */
export interface FiredEventsKeeper {
  /** An event was accepted: it is kept when this returns. */
  fired(event: FiredEventRecord): void;
  /** The journal was cleared. */
  cleared(): void;
}

/** The journal of accepted external events, oldest first. */
export class FiredEvents {
  #events: FiredEventRecord[];
  readonly #keeper: FiredEventsKeeper | undefined;

  constructor(events: readonly FiredEventRecord[] = [], keeper?: FiredEventsKeeper) {
    this.#events = [...events];
    this.#keeper = keeper;
  }

  /** Records an accepted event (kept by the keeper first, so an acknowledged fire is never lost). */
  record(event: FiredEventRecord): void {
    this.#keeper?.fired(event);
    this.#events.push(event);
  }

  /** The events, oldest first, optionally of one conversation and/or one external event. */
  list(filter: { conversationId?: string | undefined; externalEventId?: string | undefined } = {}): FiredEventRecord[] {
    return this.#events.filter((event) =>
      (filter.conversationId === undefined || event.conversationId === filter.conversationId) &&
      (filter.externalEventId === undefined || event.externalEventId === filter.externalEventId));
  }

  /** Forgets every event. */
  clear(): void {
    this.#keeper?.cleared();
    this.#events = [];
  }
}

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
  /** The body as the journal keeps it (see `bodyForJournal`). */
  readonly body: unknown;
  /** The status answered. */
  readonly status: number;
  /** Milliseconds from receipt to answer. */
  readonly durationMs: number;
}

/** A request as kept: what was received, its order of arrival, and the operation it was routed to. */
interface Kept {
  readonly request: ReceivedRequest;
  readonly sequence: number;
  readonly operationId: string | undefined;
}

/** The journal of requests received (the service's operations; the control API's own requests are not kept). */
export class RequestJournal {
  /** A ring of the last `maxRecordedRequests`: `#start` is the oldest, so dropping one costs nothing. */
  #records: Kept[] = [];
  #start = 0;
  #sequence = 0;
  #dropped = 0;

  /** Adds a request. */
  add(request: ReceivedRequest, operationId: string | undefined): void {
    const entry: Kept = { request, sequence: ++this.#sequence, operationId };
    if (this.#records.length < maxRecordedRequests) {
      this.#records.push(entry);
      return;
    }
    this.#records[this.#start] = entry;
    this.#start = (this.#start + 1) % maxRecordedRequests;
    this.#dropped++;
  }

  /** The requests matching the filter, oldest first. */
  list(filter: RequestFilter = {}): RequestRecord[] {
    return [...this.#records.slice(this.#start), ...this.#records.slice(0, this.#start)]
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
        body: record.body,
        status: record.status,
        durationMs: Math.round(record.durationMs * 1000) / 1000,
      }));
  }

  /** How many of the oldest requests were dropped to keep at most `maxRecordedRequests`. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Forgets every request. */
  clear(): void {
    this.#records = [];
    this.#start = 0;
    this.#dropped = 0;
  }
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
    headers.forEach((value, name) => pairs.push([name, value]));
  }
  return Object.fromEntries(pairs.filter(([name]) => name !== "x-token"));
}

function isRawHeaders(headers: Headers | readonly string[]): headers is readonly string[] {
  return Array.isArray(headers);
}

/** Bodies the journal keeps whole; a larger one is noted by its size. */
const maxJournalBodyBytes = 64 * 1024;

/** A request body as the journal keeps it: JSON when it parses, text otherwise, or a note when over 64 KiB (read no further). */
export async function bodyForJournal(request: Request): Promise<unknown> {
  const text = await readText(request, maxJournalBodyBytes).catch(() => "(a body that could not be read: the client stopped sending it)");
  if (text === undefined) return `(a body over ${maxJournalBodyBytes} bytes: not kept)`;
  if (text === "") return null;
  // JSON nested past the sandbox's limit is kept as text, as invalid JSON is: it could not be served back as JSON.
  const parsed = parseJson(text, "The body");
  return parsed.ok ? parsed.value : text;
}
