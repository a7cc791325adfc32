/** The external events a sandbox accepted, and what it keeps beyond its in-memory data: in memory here, or in a `--data` file (`data-file.ts`). */
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
 * Where the fired events are kept: in memory (`MemoryFiredEvents`), or in a `--data` database (Node
 * only, `data-file.ts`). Each event gets a sequence number, increasing: a cursor stays valid across a
 * clear while the sandbox runs.
 */
export interface FiredEventsStore {
  /**
   * Keeps an accepted event. A store that writes elsewhere returns a promise that resolves once the
   * event is committed (and rejects when it could not be kept): the fire is answered only then, so an
   * acknowledged fire is never lost. The event is placed in order when this is called: the caller checks
   * the data and records in one synchronous step, and awaits only after.
   */
  record(event: FiredEventRecord): void | Promise<void>;
  /** The events after sequence number `after` that match, oldest first, at most `limit`. */
  page(filter: FiredEventsFilter, after: number, limit: number): FiredEventsPage;
  /** Forgets every event (the sequence numbers go on). */
  clear(): void;
}

/** What a sandbox keeps beyond its in-memory data: the fired events, and (with `--data`) the data's source. */
export interface KeptState {
  /** The fired events. */
  readonly fired: FiredEventsStore;
  /** The data was replaced: keeps the new source and forgets every fired event, together. */
  replaced(source: DataSource): void;
  /** Closes what is open (every acknowledged change is already kept). */
  close(): void;
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

/** Whether an event matches every filter given. */
export function matchesFilter(event: FiredEventRecord, filter: FiredEventsFilter): boolean {
  return (filter.conversationId === undefined || event.conversationId === filter.conversationId) &&
    (filter.externalEventId === undefined || event.externalEventId === filter.externalEventId);
}

/** What the sandbox keeps when nothing is kept beyond the process: the fired events in memory. */
export function keptInMemory(): KeptState {
  const fired = new MemoryFiredEvents();
  return { fired, replaced: () => fired.clear(), close: () => undefined };
}

/** Every fired event that matches, oldest first, read a page at a time. */
export function allFiredEvents(store: FiredEventsStore, filter: FiredEventsFilter = {}): FiredEventRecord[] {
  const events: FiredEventRecord[] = [];
  for (let after = 0; ;) {
    const page = store.page(filter, after, 10_000);
    events.push(...page.events);
    if (page.next === undefined) return events;
    after = page.next;
  }
}
