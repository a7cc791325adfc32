import type { ConversationExport, ExternalEventTrigger } from "@bot-conversation/types";
import type { SandboxData, StoredBot, StoredConversation } from "../model.ts";
import { TextArena } from "./arena.ts";
import { equalityFilters, pairedFilters, type EqualityFilterName, type SearchEngine, type SearchFilters, type SearchOrder, type SummaryRow } from "./filters.ts";
import { columnsOf } from "./summary.ts";

/** Conversation numbers in one search order: all, and split by each equality filter's value and each pair's. */
interface OrderLists {
  readonly all: Uint32Array;
  /** Each conversation's position in `all`: sorting positions sorts conversations in this order. */
  readonly rank: Uint32Array;
  /** Per equality filter (in `equalityFilters` order), a list per value, indexed by the value's code. */
  readonly byValue: Uint32Array[][];
  /** Per pair (in `pairedFilters` order), a list per pair of values, keyed `"<code> <code>"`. */
  readonly byPair: Map<string, Uint32Array>[];
}

/** Where each equality filter stands in `equalityFilters`: its column, its codes and its lists. */
const filterAt = (name: EqualityFilterName) => equalityFilters.findIndex((filter) => filter.name === name);
/** The bot's column: its codes are the bots' numbers in load order. */
const botFilter = filterAt("agentStageId");
const pairs = pairedFilters.map(([first, second]) => [filterAt(first), filterAt(second)] as const);

/** A column of codes: in the narrowest typed array its codes fit. */
type Column = Uint8Array | Uint16Array | Uint32Array;

/** The column in the narrowest typed array that holds `size` codes. */
function narrowed(column: Column, size: number): Column {
  return size <= 0x100 ? Uint8Array.from(column) : size <= 0x1_0000 ? Uint16Array.from(column) : column;
}

/** A column no search reads (the stand-in for an equality filter not sent). */
const noColumn: Column = new Uint8Array(0);

/** Conversations loaded between two pauses of a load that must not hold up other requests. */
const loadChunk = 4096;

/**
 * The sandbox's data, in memory, read-only once loaded: the same engine in Node and in a browser.
 * Conversations are kept as columns (typed arrays) of what a search filters and sorts by, plus each
 * summary as UTF-8 JSON in a `TextArena`; a generated conversation's export is generated again when it is asked for, so
 * 100,000 conversations hold no export in memory. Data is replaced by loading a new `Store` and
 * swapping it in, so requests keep the old data until the new data is complete.
 */
export class Store implements SearchEngine {
  readonly #bots: StoredBot[];
  readonly #botIndex: Map<string, number>;
  readonly #ids: string[];
  readonly #idIndex: Map<string, number>;
  readonly #sessionIndex: Map<string, number>;
  /** Per equality filter, each conversation's code of its value; the bot's column is the bot's number. */
  #equal: Column[];
  /** Per equality filter, the code of each value (the bot's: `#botIndex`). */
  readonly #codes: Map<string, number>[];
  readonly #startedMs: Float64Array;
  readonly #latestMs: Float64Array;
  readonly #inbound: Uint8Array;
  readonly #summaries: TextArena;
  /** Conversation numbers in each search order: all of them, and per equality filter's value. */
  #orders: Record<SearchOrder, OrderLists> | undefined;
  readonly #exportAt: (index: number) => ConversationExport;

  private constructor(bots: readonly StoredBot[], count: number, exportAt: (index: number) => ConversationExport) {
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
    this.#exportAt = exportAt;
  }

  /**
   * Loads data (see `dataOf` for a source's). `pause` is awaited between chunks of conversations, so a load in a
   * running server lets other requests through (the HTTP server passes a macrotask yield).
   */
  static async load(data: SandboxData, pause: () => Promise<void> = async () => undefined): Promise<Store> {
    const store = new Store(data.bots, data.count, (index) => data.conversationAt(index).conversation);
    for (let index = 0; index < data.count; index++) {
      if (index > 0 && index % loadChunk === 0) await pause();
      store.#add(index, data.conversationAt(index));
    }
    // Each column in the narrowest array its codes fit: most hold a few values, and a scan then reads a quarter of the bytes.
    store.#equal = store.#equal.map((column, at) => narrowed(column, store.#codes[at]!.size));
    store.#sort();
    return store;
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
    this.#summaries.set(index, columns.openSummary);
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
    /** The list split by a column's value, each part in the list's order. */
    const split = (all: Uint32Array, column: ArrayLike<number>): Uint32Array[] => {
      const parts: number[][] = [];
      for (const index of all) (parts[column[index]!] ??= []).push(index);
      return Array.from(parts, (part) => Uint32Array.from(part ?? []));
    };
    /** The list split by the values of two columns, each part in the list's order. */
    const splitByPair = (all: Uint32Array, first: ArrayLike<number>, second: ArrayLike<number>): Map<string, Uint32Array> => {
      const parts = new Map<string, number[]>();
      for (const index of all) {
        const key = `${first[index]!} ${second[index]!}`;
        let part = parts.get(key);
        if (!part) parts.set(key, (part = []));
        part.push(index);
      }
      return new Map([...parts].map(([key, part]) => [key, Uint32Array.from(part)]));
    };
    const rankOf = (all: Uint32Array) => {
      const rank = new Uint32Array(count);
      all.forEach((index, position) => void (rank[index] = position));
      return rank;
    };
    const lists = (all: Uint32Array): OrderLists => ({
      all, rank: rankOf(all), byValue: this.#equal.map((column) => split(all, column)),
      byPair: pairs.map(([first, second]) => splitByPair(all, this.#equal[first]!, this.#equal[second]!)),
    });
    this.#orders = {
      "startedOn-desc": lists(startDesc),
      "startedOn-asc": lists(startDesc.slice().reverse()),
      "latestMessageOn-desc": lists(byDescending(this.#latestMs)),
    };
  }

  /** Number of bots and conversations. */
  counts(): { bots: number; conversations: number } {
    return { bots: this.#bots.length, conversations: this.#ids.length };
  }

  /** One page of a search, and the number of matches; each item as its stored summary. */
  search(filters: SearchFilters, order: SearchOrder, limit: number, offset: number): { total: number; items: SummaryRow[] } {
    // Each equality filter's code: -1 when it is not sent; a value no conversation has matches nothing.
    const codes = equalityFilters.map((filter, at) => {
      const value = filters[filter.name];
      return value === undefined ? -1 : (this.#codes[at]!.get(value) ?? -2);
    });
    if (codes.includes(-2)) return { total: 0, items: [] };
    /** The equality filters sent: their columns and the codes they must hold. */
    const sent = codes.flatMap((given, at) => (given >= 0 ? [at] : []));
    const columns = sent.map((at) => this.#equal[at]!), wanted = sent.map((at) => codes[at]!);
    /** The shortest of an order's lists the equality filters name, and how many of those filters it covers; the scan checks the rest. */
    const shortest = (lists: OrderLists): [Uint32Array, number] => {
      const none = new Uint32Array(0);
      const options: [Uint32Array, number][] = [[lists.all, 0]];
      for (const at of sent) options.push([lists.byValue[at]![codes[at]!] ?? none, 1]);
      pairs.forEach(([first, second], pair) => {
        if (codes[first]! >= 0 && codes[second]! >= 0) options.push([lists.byPair[pair]!.get(`${codes[first]!} ${codes[second]!}`) ?? none, 2]);
      });
      return options.reduce((best, option) => (option[0].length < best[0].length || (option[0].length === best[0].length && option[1] > best[1]) ? option : best));
    };
    const [candidates, covered] = shortest(this.#orders![order]);
    // An exclusive upper bound is the inclusive bound one millisecond earlier: every instant is whole milliseconds.
    const shift = filters.toInclusive ? 0 : 1;
    const starts: Range = [filters.startFrom ?? -Infinity, filters.startTo === undefined ? Infinity : filters.startTo - shift];
    const lasts: Range = [filters.latestMessageFrom ?? -Infinity, filters.latestMessageTo === undefined ? Infinity : filters.latestMessageTo - shift];
    const started = this.#startedMs, latest = this.#latestMs;
    const [startFrom, startTo] = starts, [latestFrom, latestTo] = lasts;
    // The scan's inner test: the first three equality filters sent one term each, in one expression, then any
    // further ones (a loop over every filter made filtered searches half again slower).
    const count = columns.length, [one = noColumn, two = noColumn, three = noColumn] = columns, [want1 = 0, want2 = 0, want3 = 0] = wanted;
    const further = (index: number) => columns.every((column, filter) => filter < 3 || column[index] === wanted[filter]);
    const matches = (index: number) =>
      (count < 1 || one[index] === want1) && (count < 2 || two[index] === want2) && (count < 3 || three[index] === want3) &&
      started[index]! >= startFrom && started[index]! <= startTo && latest[index]! >= latestFrom && latest[index]! <= latestTo && (count < 4 || further(index));
    // The instant the order sorts by: a range of it is one run of the list, found by bisection, not by scanning.
    const [sorted, sortedRange, other, otherRange, otherOrder] = order === "latestMessageOn-desc"
      ? [latest, lasts, started, starts, "startedOn-desc" as const]
      : [started, starts, latest, lasts, "latestMessageOn-desc" as const];
    const [first, end] = runOf(candidates, sorted, sortedRange, order !== "startedOn-asc");
    const otherBounded = otherRange[0] > -Infinity || otherRange[1] < Infinity;
    const equalities = sent.length;
    if (equalities <= covered && !otherBounded) {
      // The run is exactly the matches: the page is read off it.
      const items: SummaryRow[] = [];
      for (let position = Math.min(end, first + offset), last = Math.min(end, first + offset + limit); position < last; position++) items.push(this.#row(candidates[position]!));
      return { total: end - first, items };
    }
    if (otherBounded) {
      // A range of the other instant is one run of the lists in its order: when that run is shorter than this
      // one, its matches are taken there and put in the order asked by their positions in it (a bitmap, no sort).
      const [list, listCovers] = shortest(this.#orders![otherOrder]);
      // The run matches every filter when its list covers the equalities and the order's own instant is unbounded.
      const check = equalities > listCovers || sortedRange[0] > -Infinity || sortedRange[1] < Infinity;
      const [otherFirst, otherEnd] = runOf(list, other, otherRange, true);
      if (otherEnd - otherFirst < end - first) {
        // Each match's position in the order asked is marked in a bitmap, which is then read from the start.
        const { all, rank } = this.#orders![order];
        const marks = this.#marks;
        let total = 0;
        for (let position = otherFirst; position < otherEnd; position++) {
          const index = list[position]!;
          if (check && !matches(index)) continue;
          const at = rank[index]!;
          marks[at >>> 5]! |= 1 << (at & 31);
          total++;
        }
        const items = markedPositions(marks, offset, Math.min(total, offset + limit)).map((at) => this.#row(all[at]!));
        marks.fill(0);
        return { total, items };
      }
    }
    // The matches are counted; only those of the page are read.
    let total = 0;
    const pageEnd = offset + limit;
    const page: number[] = [];
    for (let position = first; position < end; position++) {
      const index = candidates[position]!;
      if (!matches(index)) continue;
      if (total >= offset && total < pageEnd) page.push(index);
      total++;
    }
    return { total, items: page.map((index) => this.#row(index)) };
  }

  /** A bit per conversation, all clear between searches (a search runs to its end without yielding, and clears what it set). */
  #marksSpace: Uint32Array | undefined;

  get #marks(): Uint32Array {
    return (this.#marksSpace ??= new Uint32Array(Math.ceil(this.#ids.length / 32)));
  }

  /** The page item of conversation number `index`. */
  #row(index: number): SummaryRow {
    return { openSummary: this.#summaries.bytes(index), inbound: this.#inbound[index] === 1 };
  }

  /** Every bot in load order, with its triggers' identifiers and its number of conversations. */
  bots(): { agentStageId: string; externalEventIds: string[]; conversations: number }[] {
    const counts = new Array<number>(this.#bots.length).fill(0);
    for (const bot of this.#equal[botFilter]!) counts[bot]! += 1;
    return this.#bots.map((bot, index) => ({ agentStageId: bot.agentStageId, externalEventIds: bot.triggers.map((trigger) => trigger.externalEventId), conversations: counts[index]! }));
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
    return index === undefined ? undefined : structuredClone(this.#exportAt(index));
  }
}

/** An instant's range, epoch milliseconds, both ends included (unbounded: infinite). */
type Range = readonly [from: number, to: number];

/**
 * The positions [first, end) of a list sorted by `column` (newest first, or oldest first) whose
 * values lie in `range`: one run, found by bisection. A range that ends before it starts holds nothing.
 */
function runOf(list: Uint32Array, column: Float64Array, [from, to]: Range, newestFirst: boolean): [number, number] {
  /** The length of the list's prefix whose values pass `test` (true, then false, along the list). */
  const prefix = (test: (value: number) => boolean) => {
    let [low, high] = [0, list.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (test(column[list[middle]!]!)) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  if (from === -Infinity && to === Infinity) return [0, list.length];
  const [first, end] = newestFirst ? [prefix((value) => value > to), prefix((value) => value >= from)] : [prefix((value) => value < from), prefix((value) => value <= to)];
  return [first, Math.max(first, end)];
}

/** The positions of the set bits of a bitmap, in order, from the `from`-th set bit to before the `to`-th. */
function markedPositions(marks: Uint32Array, from: number, to: number): number[] {
  const positions: number[] = [];
  for (let word = 0, seen = 0; word < marks.length && seen < to; word++) {
    let bits = marks[word]!;
    if (bits === 0) continue;
    const count = bitCount(bits);
    if (seen + count <= from) {
      seen += count;
      continue;
    }
    for (; bits !== 0 && seen < to; seen++) {
      const lowest = bits & -bits;
      if (seen >= from) positions.push(word * 32 + 31 - Math.clz32(lowest));
      bits ^= lowest;
    }
  }
  return positions;
}

/** The number of bits set in a 32-bit word. */
function bitCount(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** The small number standing for a text in a column, added when new. */
function code(codes: Map<string, number>, text: string): number {
  let value = codes.get(text);
  if (value === undefined) codes.set(text, (value = codes.size));
  return value;
}
