/** The external events a sandbox accepted, and what it keeps beyond its in-memory data: in memory here, or in a `--data` file (`data-file.ts`). */

import type { FaultStore } from "../http/faults.ts";
import type { DataSource } from "../model.ts";

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
 * Where the fired events are kept: in memory (`MemoryFiredEvents`), in a `--data` database (Node
 * only, `data-file.ts`), or in PostgreSQL (`postgres.ts`, whose answers are promises). Each event gets
 * a sequence number, increasing: a cursor stays valid across a clear while the sandbox runs.
 */
export interface FiredEventsStore {
  /**
   * Keeps an accepted event. A store that writes elsewhere (`--data`, PostgreSQL) returns a promise that resolves once the
   * event is committed (and rejects when it could not be kept): the fire is answered only then, so an
   * acknowledged fire is never lost. The event is placed in order when this is called: the caller checks
   * the data and records in one synchronous step, and awaits only after.
   */
  record(event: FiredEventRecord): void | Promise<void>;
  /** The events after sequence number `after` that match, oldest first, at most `limit`. */
  page(filter: FiredEventsFilter, after: number, limit: number): FiredEventsPage | Promise<FiredEventsPage>;
  /** Forgets every event (the sequence numbers go on). */
  clear(): void | Promise<void>;
}

/**
 * What a sandbox keeps beyond its in-memory data: the fired events, the data's source (with `--data` or a
 * database) and the armed faults (with a database; in memory otherwise). One interface, one implementation
 * per store: in memory here, the `--data` file (`data-file.ts`), PostgreSQL (`postgres.ts`).
 */
export interface KeptState {
  /** The fired events. */
  readonly fired: FiredEventsStore;
  /** The armed faults, when they are kept beyond the process (every replica of a shared sandbox sees them); in memory when not given. */
  readonly faults?: FaultStore | undefined;
  /**
   * The data was replaced: keeps the new source and forgets every fired event, together, then calls `swap`
   * (which puts the new data in place) in the same turn, so no fire is checked against data already replaced.
   */
  replaced(source: DataSource, swap: () => void): void | Promise<void>;
  /** Closes what is open (every acknowledged change is already kept). */
  close(): void | Promise<void>;
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

  record(event: FiredEventRecord): void {
    this.#events.push({ sequence: ++this.#sequence, event });
  }

  page(filter: FiredEventsFilter, after: number, limit: number): FiredEventsPage {
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

  clear(): void {
    this.#events = [];
  }
}

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

/** What the sandbox keeps when nothing is kept beyond the process: the fired events in memory. */
export function keptInMemory(): KeptState {
  const fired = new MemoryFiredEvents();
  return {
    fired,
    replaced: (_source, swap) => {
      fired.clear();
      swap();
    },
    close: () => undefined,
  };
}

/** Every fired event that matches, oldest first, read a page at a time, from a store that answers at once (in memory, `--data`). */
export function allFiredEvents(store: FiredEventsStore, filter: FiredEventsFilter = {}): FiredEventRecord[] {
  const events: FiredEventRecord[] = [];
  for (let after = 0; ; ) {
    const page = store.page(filter, after, 10_000);
    if (page instanceof Promise) throw new TypeError("firedEvents(): the fired events are kept in a database; read them with listFiredEvents()");
    events.push(...page.events);
    if (page.next === undefined) return events;
    after = page.next;
  }
}

/** Every fired event that matches, oldest first, read a page at a time, from any store. */
export async function listAllFiredEvents(store: FiredEventsStore, filter: FiredEventsFilter = {}): Promise<FiredEventRecord[]> {
  const events: FiredEventRecord[] = [];
  for (let after = 0; ; ) {
    const page = await store.page(filter, after, 10_000);
    events.push(...page.events);
    if (page.next === undefined) return events;
    after = page.next;
  }
}
