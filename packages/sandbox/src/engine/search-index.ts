import type { ConversationExport, ExternalEventTrigger } from "@bot-conversation/types";
import type { SandboxData, StoredBot, StoredConversation } from "../model.ts";
import { TextArena } from "./arena.ts";
import { combinedPlaces, equalityFilters, type Period, placeOf, type SearchEngine, type SearchFilters, type SearchOrder, type SummaryRow } from "./filters.ts";
import { answer, type Column, combinationKey, type Indexes, type OrderLists, type Range } from "./strategies.ts";
import { columnsOf, openSummaryOf } from "./summary.ts";

/** The bot's column: its codes are the bots' numbers in load order. */
const botFilter = placeOf("agentStageId");

/** The column in the narrowest typed array that holds `size` codes. */
function narrowed(column: Column, size: number): Column {
  return size <= 0x100 ? Uint8Array.from(column) : size <= 0x1_0000 ? Uint16Array.from(column) : column;
}

/** Conversations loaded between two pauses of a load that must not hold up other requests. */
const loadChunk = 4096;

/**
 * The sandbox's data, in memory, read-only once loaded: the same engine in Node and in a browser.
 * Conversations are kept as columns (typed arrays) of what a search filters and sorts by; each summary is written
 * (UTF-8 JSON in a `TextArena`) when a page first holds its conversation, and a generated conversation's export is
 * generated again when it is asked for, so 100,000 conversations hold no export in memory and a start writes no
 * summary. Data is replaced by loading a new `SearchIndex` and swapping it in, so requests keep the old data until
 * the new data is complete.
 */
export class SearchIndex implements SearchEngine {
  readonly #bots: StoredBot[];
  readonly #botIndex: Map<string, number>;
  readonly #ids: string[];
  readonly #idIndex: Map<string, number>;
  readonly #sessionIndex: Map<string, number>;
  /** Per equality filter, each conversation's code of its value; the bot's column is the bot's number. */
  #equal: Column[];
  /** Per equality filter, the code of each value (the bot's: `#botIndex`); `null` for a conversation without one (a nullable field's). */
  readonly #codes: Map<string | null, number>[];
  readonly #startedMs: Float64Array;
  readonly #latestMs: Float64Array;
  readonly #inbound: Uint8Array;
  readonly #summaries: TextArena;
  /** Each conversation's page item, made when a page first holds it (see `#row`). */
  readonly #rows: (SummaryRow | undefined)[];
  /** What a search reads (see `strategies.ts`), made once the data is loaded and sorted. */
  #indexes: Indexes | undefined;
  /** The conversation numbered `index`, as loaded (a generated one generated again). */
  readonly #storedAt: (index: number) => StoredConversation;

  private constructor(bots: readonly StoredBot[], count: number, storedAt: (index: number) => StoredConversation) {
    this.#bots = [...bots];
    this.#botIndex = new Map(bots.map((bot, index) => [bot.agentStageId, index]));
    this.#ids = new Array<string>(count);
    this.#idIndex = new Map();
    this.#sessionIndex = new Map();
    this.#equal = equalityFilters.map(() => new Uint32Array(count));
    this.#codes = equalityFilters.map((_, at) => (at === botFilter ? this.#botIndex : new Map()));
    this.#startedMs = new Float64Array(count);
    this.#latestMs = new Float64Array(count);
    this.#inbound = new Uint8Array(count);
    this.#summaries = new TextArena(count);
    this.#rows = new Array<SummaryRow | undefined>(count);
    this.#storedAt = storedAt;
  }

  /**
   * Loads data (see `dataOf` for a source's). `pause` is awaited between chunks of conversations, so a load in a
   * running server lets other requests through (the HTTP server passes a macrotask yield).
   */
  static async load(data: SandboxData, pause: () => Promise<void> = async () => undefined): Promise<SearchIndex> {
    const index = new SearchIndex(data.bots, data.count, (at) => data.conversationAt(at));
    // What a search filters and sorts by, read from the cheaper form when the source has one; pages and exports read `conversationAt`.
    const searchedAt = data.searchedAt === undefined ? (at: number) => data.conversationAt(at) : (at: number) => data.searchedAt!(at);
    for (let at = 0; at < data.count; at++) {
      if (at > 0 && at % loadChunk === 0) await pause();
      index.#add(at, searchedAt(at));
    }
    // Each column in the narrowest array its codes fit: most hold a few values, and a scan then reads a quarter of the bytes.
    index.#equal = index.#equal.map((column, at) => narrowed(column, index.#codes[at]!.size));
    index.#sort();
    return index;
  }

  #add(index: number, stored: StoredConversation): void {
    if (!this.#botIndex.has(stored.agentStageId)) throw new Error(`Conversation ${stored.conversation.id} names no known bot (${stored.agentStageId})`);
    const columns = columnsOf(stored);
    this.#ids[index] = stored.conversation.id;
    this.#idIndex.set(stored.conversation.id, index);
    if (columns.sessionId !== null && !this.#sessionIndex.has(columns.sessionId)) this.#sessionIndex.set(columns.sessionId, index);
    for (let at = 0; at < equalityFilters.length; at++) this.#equal[at]![index] = code(this.#codes[at]!, equalityFilters[at]!.valueOf(stored));
    this.#startedMs[index] = columns.startedOnMs;
    this.#latestMs[index] = columns.latestMessageOnMs;
    this.#inbound[index] = columns.latestMessageInbound ? 1 : 0;
  }

  #sort(): void {
    const count = this.#ids.length;
    const byDescending = (key: Float64Array) => {
      const all = Uint32Array.from({ length: count }, (_, index) => index);
      // Newest first; among equal instants the last loaded first.
      all.sort((a, b) => key[b]! - key[a]! || b - a);
      return all;
    };
    const startDesc = byDescending(this.#startedMs);
    const codeCounts = this.#codes.map((codes) => codes.size);
    /** Each order's lists, split from its list of all (see `splitBy`). */
    const lists = (all: Uint32Array): OrderLists => ({
      all,
      rank: rankOf(all),
      byValue: this.#equal.map((column, at) => splitBy(all, column, codeCounts[at]!)),
      byCombination: combinedPlaces.map((places) => {
        const radixes = places.map((place) => codeCounts[place]!);
        const columns = places.map((place) => this.#equal[place]!);
        const codes = new Array<number>(places.length);
        return {
          radixes,
          lists: combinationLists(all, (index) => {
            for (let at = 0; at < columns.length; at++) codes[at] = columns[at]![index]!;
            return combinationKey(radixes, codes);
          }),
        };
      }),
    });
    const descending = lists(startDesc);
    this.#indexes = {
      orders: {
        "startedOn-desc": descending,
        // Oldest first is newest first read backwards, and so is each of its lists: reversed, not split again.
        "startedOn-asc": reversed(descending),
        "latestMessageOn-desc": lists(byDescending(this.#latestMs)),
      },
      equal: this.#equal,
      startedMs: this.#startedMs,
      latestMs: this.#latestMs,
      row: (index) => this.#row(index),
      marks: () => (this.#marksSpace ??= new Uint32Array(Math.ceil(this.#ids.length / 32))),
    };
  }

  /** Number of bots and conversations. */
  counts(): { bots: number; conversations: number } {
    return { bots: this.#bots.length, conversations: this.#ids.length };
  }

  /** One page of a search, and the number of matches; each item as its stored summary (see `strategies.ts`). */
  search(filters: SearchFilters, order: SearchOrder, limit: number, offset: number): { total: number; items: SummaryRow[] } {
    const codes = new Array<number | undefined>(equalityFilters.length);
    for (let at = 0; at < equalityFilters.length; at++) {
      const value = filters[equalityFilters[at]!.name];
      if (value === undefined) continue;
      codes[at] = this.#codes[at]!.get(value);
      // A value no conversation has matches nothing.
      if (codes[at] === undefined) return { total: 0, items: [] };
    }
    // An exclusive upper bound is the inclusive bound one millisecond earlier: every instant is whole milliseconds.
    const upTo = (bound: number | undefined) => (bound === undefined ? Infinity : bound - (filters.toInclusive ? 0 : 1));
    const range = (period: Period | undefined): Range => [period?.from ?? -Infinity, upTo(period?.to)];
    const started = range(filters.periods?.startedOn);
    const latest = range(filters.periods?.latestMessageOn);
    return answer(this.#indexes!, { order, limit, offset, codes, started, latest });
  }

  /** A bit per conversation, all clear between searches (a search runs to its end without yielding, and clears what it set). */
  #marksSpace: Uint32Array | undefined;

  /** The page item of conversation number `index`. */
  #row(index: number): SummaryRow {
    // Made once per conversation, when a page first holds it: a page's items are then no new objects, and a start
    // writes no summary (a generated conversation is generated again for it, about 10 µs: a page of 20 pays 0.2 ms once).
    let row = this.#rows[index];
    if (row === undefined)
      this.#rows[index] = row = { openSummary: this.#summaries.add(openSummaryOf(this.#storedAt(index))), inbound: this.#inbound[index] === 1 };
    return row;
  }

  /** Every bot in load order, with its triggers' identifiers and its number of conversations. */
  bots(): { agentStageId: string; externalEventIds: string[]; conversations: number }[] {
    const counts = new Array<number>(this.#bots.length).fill(0);
    for (const bot of this.#equal[botFilter]!) counts[bot]! += 1;
    return this.#bots.map((bot, index) => ({
      agentStageId: bot.agentStageId,
      externalEventIds: bot.triggers.map((trigger) => trigger.externalEventId),
      conversations: counts[index]!,
    }));
  }

  /** The bot's triggers in order (as loaded: not to be changed), or `undefined` when there is no such bot. */
  triggersOf(agentStageId: string): readonly ExternalEventTrigger[] | undefined {
    const bot = this.#botIndex.get(agentStageId);
    return bot === undefined ? undefined : this.#bots[bot]!.triggers;
  }

  /** One trigger of a bot, or `undefined`. */
  trigger(agentStageId: string, externalEventId: string): ExternalEventTrigger | undefined {
    const bot = this.#botIndex.get(agentStageId);
    return bot === undefined ? undefined : this.#bots[bot]!.triggers.find((trigger) => trigger.externalEventId === externalEventId);
  }

  /** A conversation's identifier and bot, by conversation identifier or by platform session identifier (the first loaded). */
  findConversation(by: "id" | "sessionId", value: string): { id: string; agentStageId: string } | undefined {
    const index = (by === "id" ? this.#idIndex : this.#sessionIndex).get(value);
    return index === undefined ? undefined : { id: this.#ids[index]!, agentStageId: this.#bots[this.#equal[botFilter]![index]!]!.agentStageId };
  }

  /** A conversation as the export model (a copy), or `undefined`. */
  exportOf(conversationId: string): ConversationExport | undefined {
    const index = this.#idIndex.get(conversationId);
    return index === undefined ? undefined : structuredClone(this.#storedAt(index).conversation);
  }
}

/** Each conversation's position in `all`. */
function rankOf(all: Uint32Array): Uint32Array {
  const rank = new Uint32Array(all.length);
  for (let position = 0; position < all.length; position++) rank[all[position]!] = position;
  return rank;
}

/** The list split by a column's codes (from 0 to `codes - 1`), each part in the list's order: counted, then filled. */
function splitBy(all: Uint32Array, column: Column, codes: number): Uint32Array[] {
  const sizes = new Uint32Array(codes);
  for (const index of all) sizes[column[index]!]!++;
  const parts = Array.from(sizes, (size) => new Uint32Array(size));
  const filled = new Uint32Array(codes);
  for (const index of all) {
    const code = column[index]!;
    parts[code]![filled[code]!++] = index;
  }
  return parts;
}

/** The list split by a key of each conversation (a combination's, see `CombinationLists`), each part in the list's order. */
function combinationLists(all: Uint32Array, keyOf: (index: number) => number): Map<number, Uint32Array> {
  const parts = new Map<number, number[]>();
  for (const index of all) {
    const key = keyOf(index);
    const part = parts.get(key);
    if (part) part.push(index);
    else parts.set(key, [index]);
  }
  const lists = new Map<number, Uint32Array>();
  for (const [key, part] of parts) lists.set(key, Uint32Array.from(part));
  return lists;
}

/** An order's lists read backwards: the order that sorts the other way (ties too). */
function reversed(lists: OrderLists): OrderLists {
  const all = lists.all.slice().reverse();
  return {
    all,
    rank: rankOf(all),
    byValue: lists.byValue.map((parts) => parts.map((part) => part.slice().reverse())),
    byCombination: lists.byCombination.map(({ radixes, lists: byCodes }) => ({
      radixes,
      lists: new Map([...byCodes].map(([key, part]) => [key, part.slice().reverse()])),
    })),
  };
}

/** The small number standing for a text in a column, added when new. */
function code(codes: Map<string | null, number>, text: string | null): number {
  let value = codes.get(text);
  if (value === undefined) codes.set(text, (value = codes.size));
  return value;
}
