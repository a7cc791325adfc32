import type { ConversationExport, ExternalEventTrigger } from "@bot-conversation/types";
import type { SandboxData, StoredBot, StoredConversation } from "../model.ts";
import { TextArena } from "./arena.ts";
import { columnsOf } from "./summary.ts";

/** Filters of a search, already checked; dates as epoch milliseconds. */
export interface SearchFilters {
  /** Bot identifier. */
  readonly agentStageId?: string | undefined;
  /** Conversation status, as stored. */
  readonly status?: string | undefined;
  /** Channel identifier. */
  readonly channelId?: string | undefined;
  /** Earliest start (inclusive). */
  readonly startFrom?: number | undefined;
  /** Latest start. */
  readonly startTo?: number | undefined;
  /** Earliest last message (inclusive). */
  readonly latestMessageFrom?: number | undefined;
  /** Latest last message. */
  readonly latestMessageTo?: number | undefined;
  /** Whether the `...To` bounds include their instant. */
  readonly toInclusive: boolean;
}

/** The orders a search can sort by (the `order` switch). Ties follow the load order in the direction of the sort. */
export type SearchOrder = "startedOn-desc" | "startedOn-asc" | "latestMessageOn-desc";

/** One item of a search page: the stored summary and what its direction depends on. */
export interface SummaryRow {
  /** The search summary as UTF-8 JSON, without `latestMessageDirection` and its closing brace (a view: not to be changed). */
  readonly openSummary: Uint8Array;
  /** Whether the user sent the last message. */
  readonly inbound: boolean;
}

/** Conversation numbers in one search order: all, and split by bot, status and channel (each part indexed by the column's code). */
interface OrderLists {
  readonly all: Uint32Array;
  /** Each conversation's position in `all`: sorting positions sorts conversations in this order. */
  readonly rank: Uint32Array;
  readonly byBot: Uint32Array[];
  readonly byStatus: Uint32Array[];
  readonly byChannel: Uint32Array[];
  /** Per bot and status, keyed `"<bot> <status>"`. */
  readonly byBotStatus: Map<string, Uint32Array>;
  /** Per bot and channel, keyed `"<bot> <channel>"`. */
  readonly byBotChannel: Map<string, Uint32Array>;
}

/** Conversations loaded between two pauses of a load that must not hold up other requests. */
const loadChunk = 4096;

/**
 * The sandbox's data, in memory, read-only once loaded: the same engine in Node and in a browser.
 * Conversations are kept as columns (typed arrays) of what a search filters and sorts by, plus each
 * summary as UTF-8 JSON in a `TextArena`; a generated conversation's export is generated again when it is asked for, so
 * 100,000 conversations hold no export in memory. Data is replaced by loading a new `Store` and
 * swapping it in, so requests keep the old data until the new data is complete.
 */
export class Store {
  readonly #bots: StoredBot[];
  readonly #botIndex: Map<string, number>;
  readonly #ids: string[];
  readonly #idIndex: Map<string, number>;
  readonly #sessionIndex: Map<string, number>;
  readonly #bot: Uint32Array;
  readonly #status: Uint8Array;
  readonly #channel: Uint32Array;
  readonly #startedMs: Float64Array;
  readonly #latestMs: Float64Array;
  readonly #inbound: Uint8Array;
  readonly #summaries: TextArena;
  readonly #statusCodes = new Map<string, number>();
  readonly #channelCodes = new Map<string, number>();
  /** Conversation numbers in each search order: all of them, and per bot, per status and per channel. */
  #orders: Record<SearchOrder, OrderLists> | undefined;
  readonly #exportAt: (index: number) => ConversationExport;

  private constructor(bots: readonly StoredBot[], count: number, exportAt: (index: number) => ConversationExport) {
    this.#bots = [...bots];
    this.#botIndex = new Map(bots.map((bot, index) => [bot.agentStageId, index]));
    this.#ids = new Array<string>(count);
    this.#idIndex = new Map();
    this.#sessionIndex = new Map();
    this.#bot = new Uint32Array(count);
    this.#status = new Uint8Array(count);
    this.#channel = new Uint32Array(count);
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
    store.#sort();
    return store;
  }

  #add(index: number, stored: StoredConversation): void {
    const bot = this.#botIndex.get(stored.agentStageId);
    if (bot === undefined) throw new Error(`Conversation ${stored.conversation.id} names no known bot (${stored.agentStageId})`);
    const columns = columnsOf(stored);
    this.#ids[index] = stored.conversation.id;
    this.#idIndex.set(stored.conversation.id, index);
    if (columns.sessionId !== null && !this.#sessionIndex.has(columns.sessionId)) this.#sessionIndex.set(columns.sessionId, index);
    this.#bot[index] = bot;
    this.#status[index] = code(this.#statusCodes, stored.conversation.status);
    this.#channel[index] = code(this.#channelCodes, stored.conversation.channelId);
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
    // A bot's conversations in one status, or on one channel: the filters a frontend combines most.
    const pairs = (all: Uint32Array, column: ArrayLike<number>): Map<string, Uint32Array> => {
      const parts = new Map<string, number[]>();
      for (const index of all) {
        const key = `${this.#bot[index]!} ${column[index]!}`;
        let part = parts.get(key);
        if (!part) parts.set(key, (part = []));
        part.push(index);
      }
      return new Map([...parts].map(([key, part]) => [key, Uint32Array.from(part)]));
    };
    const rankOf = (all: Uint32Array) => {
      const rank = new Uint32Array(count);
      all.forEach((index, position) => (rank[index] = position));
      return rank;
    };
    const lists = (all: Uint32Array): OrderLists => ({
      all, rank: rankOf(all), byBot: split(all, this.#bot), byStatus: split(all, this.#status), byChannel: split(all, this.#channel),
      byBotStatus: pairs(all, this.#status), byBotChannel: pairs(all, this.#channel),
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
    const bot = filters.agentStageId === undefined ? -1 : (this.#botIndex.get(filters.agentStageId) ?? -2);
    const status = filters.status === undefined ? -1 : (this.#statusCodes.get(filters.status) ?? -2);
    const channel = filters.channelId === undefined ? -1 : (this.#channelCodes.get(filters.channelId) ?? -2);
    if (bot === -2 || status === -2 || channel === -2) return { total: 0, items: [] };
    /** The shortest of an order's lists the equality filters name, and how many of those filters it covers; the scan checks the rest. */
    const shortest = (lists: OrderLists): [Uint32Array, number] => {
      const none = new Uint32Array(0);
      const options: [Uint32Array, number][] = [[lists.all, 0]];
      if (bot >= 0) options.push([lists.byBot[bot] ?? none, 1]);
      if (status >= 0) options.push([lists.byStatus[status] ?? none, 1]);
      if (channel >= 0) options.push([lists.byChannel[channel] ?? none, 1]);
      if (bot >= 0 && status >= 0) options.push([lists.byBotStatus.get(`${bot} ${status}`) ?? none, 2]);
      if (bot >= 0 && channel >= 0) options.push([lists.byBotChannel.get(`${bot} ${channel}`) ?? none, 2]);
      return options.reduce((best, option) => (option[0].length < best[0].length || (option[0].length === best[0].length && option[1] > best[1]) ? option : best));
    };
    const [candidates, covered] = shortest(this.#orders![order]);
    // An exclusive upper bound is the inclusive bound one millisecond earlier: every instant is whole milliseconds.
    const shift = filters.toInclusive ? 0 : 1;
    const starts: Range = [filters.startFrom ?? -Infinity, filters.startTo === undefined ? Infinity : filters.startTo - shift];
    const lasts: Range = [filters.latestMessageFrom ?? -Infinity, filters.latestMessageTo === undefined ? Infinity : filters.latestMessageTo - shift];
    const bots = this.#bot, statuses = this.#status, channels = this.#channel, started = this.#startedMs, latest = this.#latestMs;
    const [startFrom, startTo] = starts, [latestFrom, latestTo] = lasts;
    const matches = (index: number) =>
      (bot < 0 || bots[index] === bot) && (status < 0 || statuses[index] === status) && (channel < 0 || channels[index] === channel) &&
      started[index]! >= startFrom && started[index]! <= startTo && latest[index]! >= latestFrom && latest[index]! <= latestTo;
    // The instant the order sorts by: a range of it is one run of the list, found by bisection, not by scanning.
    const [sorted, sortedRange, other, otherRange, otherOrder] = order === "latestMessageOn-desc"
      ? [latest, lasts, started, starts, "startedOn-desc" as const]
      : [started, starts, latest, lasts, "latestMessageOn-desc" as const];
    const [first, end] = runOf(candidates, sorted, sortedRange, order !== "startedOn-asc");
    const otherBounded = otherRange[0] > -Infinity || otherRange[1] < Infinity;
    const equalities = [bot, status, channel].filter((code) => code >= 0).length;
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
    for (const bot of this.#bot) counts[bot]! += 1;
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
    return index === undefined ? undefined : { id: this.#ids[index]!, agentStageId: this.#bots[this.#bot[index]!]!.agentStageId };
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
