/** The external events a sandbox accepted: their record, the one interface of where they are kept, and their rows in a database. */

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

/** Filters of the fired events: every one given must match. */
export interface FiredEventsFilter {
  /** The conversation the event resolved to. */
  readonly conversationId?: string | undefined;
  /** The external event fired. */
  readonly externalEventId?: string | undefined;
}

/** One page of fired events, oldest first, and the cursor of the next page when there are more. */
export interface FiredEventsPage {
  readonly events: FiredEventRecord[];
  /** The sequence number to pass as `after` for the next page, or `undefined` on the last page. */
  readonly next: number | undefined;
}

/**
 * Where a workspace's fired events are kept: in memory (`MemoryFiredEvents`), in a `--data` file
 * (`DatabaseFiredEvents`) or in PostgreSQL (`PostgresFiredEvents`). One asynchronous interface: the app
 * awaits each answer once. Each event gets a sequence number, increasing: a cursor stays valid across a clear.
 */
export interface FiredEventsStore {
  /**
   * Keeps an accepted event, resolving once it is kept (committed, for a store that writes elsewhere) and
   * rejecting when it could not be: the fire is answered only then, so an acknowledged fire is never lost.
   * The event is placed in order when this is called: the caller checks the data and records in one
   * synchronous step, and awaits only after.
   */
  record(event: FiredEventRecord): Promise<void>;
  /**
   * The events after the one numbered `after` that match, oldest first (in the order they were kept; on PostgreSQL,
   * of the transactions that wrote them, never past one not yet committed), at most `limit`.
   */
  page(filter: FiredEventsFilter, after: number, limit: number): Promise<FiredEventsPage>;
  /** Forgets every event (the sequence numbers go on). */
  clear(): Promise<void>;
}

/** The kept state cannot be reached now (the database is gone): the request is answered 503 with `Retry-After`, and may be sent again. */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  /** Seconds for the `Retry-After` header. */
  readonly retryAfter: number;

  constructor(message: string, retryAfter = 1) {
    super(message);
    this.retryAfter = retryAfter;
  }
}

/**
 * A change the sandbox could not keep (its commit failed, or the `--data` file is gone): nothing changed,
 * and the request is answered 503 naming the reason (the sandbox's own status).
 */
export class NotKeptError extends Error {
  override name = "NotKeptError";
}

/** The fired events in memory, oldest first: the browser's and the in-process sandbox's without `--data`. */
export class MemoryFiredEvents implements FiredEventsStore {
  #events: { sequence: number; event: FiredEventRecord }[] = [];
  #sequence = 0;

  record(event: FiredEventRecord): Promise<void> {
    this.#events.push({ sequence: ++this.#sequence, event });
    return kept;
  }

  async page(filter: FiredEventsFilter, after: number, limit: number): Promise<FiredEventsPage> {
    // The first event after the cursor, by bisection: sequence numbers increase along the list.
    let [low, high] = [0, this.#events.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#events[middle]!.sequence <= after) low = middle + 1;
      else high = middle;
    }
    const events: FiredEventRecord[] = [];
    let last = after;
    for (let index = low; index < this.#events.length; index++) {
      const { sequence, event } = this.#events[index]!;
      if (!matchesFilter(event, filter)) continue;
      if (events.length === limit) return { events, next: last };
      events.push(event);
      last = sequence;
    }
    return { events, next: undefined };
  }

  async clear(): Promise<void> {
    this.#events = [];
  }
}

/** The answer of a record in memory: kept at once. */
const kept: Promise<void> = Promise.resolve();

/**
 * A fired event as a row of a database: the `--data` file's `events` table and PostgreSQL's
 * `sandbox_fired_events` have the same columns (SQLite gives the payload as JSON text, PostgreSQL's
 * `jsonb` as a value; PostgreSQL's `bigint` sequence as a string).
 */
export interface FiredEventRow {
  sequence: number | string;
  received_at: string;
  sent_conversation_id: string | null;
  sent_external_conversation_id: string | null;
  external_event_id: string;
  payload: string | Record<string, unknown> | null;
  conversation_id: string;
}

/** An event's column values after its sequence, in the rows' order: `received_at` … `conversation_id`, the payload as JSON text. */
export function firedEventValues(event: FiredEventRecord): (string | null)[] {
  return [
    event.receivedAt,
    event.sent.conversationId,
    event.sent.externalConversationId,
    event.externalEventId,
    event.externalEventPayload === null ? null : JSON.stringify(event.externalEventPayload),
    event.conversationId,
  ];
}

/** A page from the rows a query read with `LIMIT limit + 1`: at most `limit` events, and the cursor when there are more. */
export function pageOfRows(rows: readonly FiredEventRow[], limit: number): FiredEventsPage {
  const events = rows.slice(0, limit).map(
    (row): FiredEventRecord => ({
      receivedAt: row.received_at,
      sent: { conversationId: row.sent_conversation_id, externalConversationId: row.sent_external_conversation_id },
      externalEventId: row.external_event_id,
      externalEventPayload: typeof row.payload === "string" ? (JSON.parse(row.payload) as Record<string, unknown>) : row.payload,
      conversationId: row.conversation_id,
    }),
  );
  return { events, next: rows.length > limit ? Number(rows[limit - 1]!.sequence) : undefined };
}

/** Whether an event matches every filter given. */
export function matchesFilter(event: FiredEventRecord, filter: FiredEventsFilter): boolean {
  return (
    (filter.conversationId === undefined || event.conversationId === filter.conversationId) &&
    (filter.externalEventId === undefined || event.externalEventId === filter.externalEventId)
  );
}

/** Every fired event that matches, oldest first, read a page at a time, from any store. */
export async function allFiredEvents(store: FiredEventsStore, filter: FiredEventsFilter = {}): Promise<FiredEventRecord[]> {
  const events: FiredEventRecord[] = [];
  for (let after = 0; ; ) {
    const page = await store.page(filter, after, 10_000);
    events.push(...page.events);
    if (page.next === undefined) return events;
    after = page.next;
  }
}
