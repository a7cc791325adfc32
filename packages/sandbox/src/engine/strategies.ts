/**
 * How the search index answers a search: the search resolved against its codes (`Query`), the candidates it starts
 * from (`planOf`), and three named strategies tried in turn, each answering when it can.
 */
import { combinedPlaces, type SearchOrder, type SummaryRow } from "./filters.ts";

/** A column of codes: in the narrowest typed array its codes fit. */
export type Column = Uint8Array | Uint16Array | Uint32Array;

/** Conversation numbers in one search order: all, and split by each equality filter's value and each combination's. */
export interface OrderLists {
  readonly all: Uint32Array;
  /** Each conversation's position in `all`: sorting positions sorts conversations in this order. */
  readonly rank: Uint32Array;
  /** Per equality filter (in `equalityFilters` order), a list per value, indexed by the value's code. */
  readonly byValue: Uint32Array[][];
  /** Per combination (in `combinedFilters` order), a list per combination of values (see `CombinationLists`). */
  readonly byCombination: readonly CombinationLists[];
}

/**
 * The lists of one combination of equality filters, one per combination of codes that some conversation has, keyed by
 * a number: the codes as digits, each filter's in the base of its number of codes (`radixes`; see `combinationKey`).
 * A number, not a text, so that neither loading nor a search builds a string per key.
 */
export interface CombinationLists {
  readonly radixes: readonly number[];
  readonly lists: ReadonlyMap<number, Uint32Array>;
}

/** The key of a combination of codes (in the order of the combination's filters) in `CombinationLists`. */
export function combinationKey(radixes: readonly number[], codes: readonly number[]): number {
  let key = 0;
  for (let at = 0; at < radixes.length; at++) key = key * radixes[at]! + codes[at]!;
  return key;
}

/** What the strategies read of the search index, fixed once it is loaded. */
export interface Indexes {
  /** Conversation numbers in each search order. */
  readonly orders: Record<SearchOrder, OrderLists>;
  /** Per equality filter (in `equalityFilters` order), each conversation's code of its value. */
  readonly equal: readonly Column[];
  readonly startedMs: Float64Array;
  readonly latestMs: Float64Array;
  /** The page item of a conversation. */
  readonly row: (index: number) => SummaryRow;
  /** A bit per conversation, all clear between searches: a strategy that sets bits clears them before it returns. */
  readonly marks: () => Uint32Array;
}

/** An instant's range, epoch milliseconds, both ends included (unbounded: infinite). */
export type Range = readonly [from: number, to: number];

/** A search resolved against the search index's codes (a value no conversation has never gets this far). */
export interface Query {
  readonly order: SearchOrder;
  readonly limit: number;
  readonly offset: number;
  /** Per equality filter (in `equalityFilters` order), the code its column must hold; `undefined` when not sent. */
  readonly codes: readonly (number | undefined)[];
  /** The start range and the last-message range. */
  readonly started: Range;
  readonly latest: Range;
}

/** One page of matches and their number. */
export interface Page {
  readonly total: number;
  readonly items: SummaryRow[];
}

/** The shortest of an order's lists the equality filters sent name, and how many of those filters it covers. */
interface Candidates {
  readonly list: Uint32Array;
  readonly covers: number;
}

/** What every strategy starts from: the candidates in the order asked, their run in the sorted instant's range, and the match test. */
interface Plan {
  readonly candidates: Candidates;
  /** The positions [first, end) of `candidates.list` whose sorted instant is in range. */
  readonly first: number;
  readonly end: number;
  /** How many equality filters were sent. */
  readonly sent: number;
  /** The order that sorts by the other instant, and that instant's column and range. */
  readonly otherOrder: SearchOrder;
  readonly otherColumn: Float64Array;
  readonly otherRange: Range;
  /** Whether the other instant's range is bounded at either end. */
  readonly otherBounded: boolean;
  /** Whether the order's own instant's range is bounded at either end. */
  readonly sortedBounded: boolean;
  /**
   * The test of whether a conversation matches every filter (made on each call: a strategy calls it once); of the
   * instants alone when `equalCovered` (the candidates' list covers every equality filter sent).
   */
  readonly matcher: (equalCovered: boolean) => (index: number) => boolean;
}

/** A way to answer a search: a page, or `undefined` when it does not apply and the next strategy answers. */
export interface SearchStrategy {
  readonly name: string;
  readonly answer: (indexes: Indexes, query: Query, plan: Plan) => Page | undefined;
}

/** The shortest list of an order's lists that the filters sent name (ties: the one covering more filters); the scan checks the rest. */
function shortest(lists: OrderLists, codes: Query["codes"]): Candidates {
  let list = lists.all;
  let covers = 0;
  // Plain loops, no closure or object per candidate: this runs on every search.
  for (let at = 0; at < codes.length; at++) {
    const code = codes[at];
    if (code === undefined) continue;
    const candidate = lists.byValue[at]![code] ?? none;
    if (candidate.length < list.length || (candidate.length === list.length && covers < 1)) [list, covers] = [candidate, 1];
  }
  for (let combination = 0; combination < combinedPlaces.length; combination++) {
    const places = combinedPlaces[combination]!;
    const { radixes, lists: byCodes } = lists.byCombination[combination]!;
    let key = 0;
    let sent = true;
    for (let at = 0; at < places.length && sent; at++) {
      const code = codes[places[at]!];
      if (code === undefined) sent = false;
      else key = key * radixes[at]! + code;
    }
    if (!sent) continue;
    const candidate = byCodes.get(key) ?? none;
    if (candidate.length < list.length || (candidate.length === list.length && covers < places.length)) [list, covers] = [candidate, places.length];
  }
  return { list, covers };
}

/** The list of no conversation. */
const none = new Uint32Array(0);

/**
 * The test of every filter, in one expression for speed; of the instants' ranges alone when `equalCovered` (the
 * candidates come from a list of conversations that have every equality filter's value sent).
 */
function matcher({ equal, startedMs, latestMs }: Indexes, query: Query, equalCovered: boolean): (index: number) => boolean {
  const sent = equalCovered ? [] : query.codes.flatMap((code, at) => (code === undefined ? [] : [at]));
  const columns = sent.map((at) => equal[at]!),
    wanted = sent.map((at) => query.codes[at]!);
  const [startFrom, startTo] = query.started,
    [latestFrom, latestTo] = query.latest;
  const started = startedMs,
    latest = latestMs;
  // The first three equality filters sent are one term each, in one expression, then any further ones (a loop
  // over every filter made filtered searches half again slower).
  const count = columns.length,
    [one = noColumn, two = noColumn, three = noColumn] = columns,
    [want1 = 0, want2 = 0, want3 = 0] = wanted;
  const further = (index: number) => columns.every((column, filter) => filter < 3 || column[index] === wanted[filter]);
  return (index: number) =>
    (count < 1 || one[index] === want1) &&
    (count < 2 || two[index] === want2) &&
    (count < 3 || three[index] === want3) &&
    started[index]! >= startFrom &&
    started[index]! <= startTo &&
    latest[index]! >= latestFrom &&
    latest[index]! <= latestTo &&
    (count < 4 || further(index));
}

/** A column no search reads (the stand-in for an equality filter not sent). */
const noColumn: Column = new Uint8Array(0);

const bounded = ([from, to]: Range) => from > -Infinity || to < Infinity;

/** What every strategy starts from (see `Plan`). */
export function planOf(indexes: Indexes, query: Query): Plan {
  const candidates = shortest(indexes.orders[query.order], query.codes);
  // The instant the order sorts by: a range of it is one run of the list, found by bisection, not by scanning.
  const [sortedColumn, sortedRange, otherColumn, otherRange, otherOrder] =
    query.order === "latestMessageOn-desc"
      ? [indexes.latestMs, query.latest, indexes.startedMs, query.started, "startedOn-desc" as const]
      : [indexes.startedMs, query.started, indexes.latestMs, query.latest, "latestMessageOn-desc" as const];
  const [first, end] = runOf(candidates.list, sortedColumn, sortedRange, query.order !== "startedOn-asc");
  let sent = 0;
  for (const code of query.codes) if (code !== undefined) sent++;
  return {
    candidates,
    first,
    end,
    sent,
    otherOrder,
    otherColumn,
    otherRange,
    otherBounded: bounded(otherRange),
    sortedBounded: bounded(sortedRange),
    // Made by a strategy that tests conversations: a page read off a run (most searches) tests none.
    matcher: (equalCovered) => matcher(indexes, query, equalCovered),
  };
}

/** The run is exactly the matches (its list covers every equality filter sent, the other instant is unbounded): the page is read off it. */
export const readRun: SearchStrategy = {
  name: "read the run",
  answer: ({ row }, { offset, limit }, { candidates: { list, covers }, first, end, sent, otherBounded }) => {
    if (sent > covers || otherBounded) return undefined;
    const items: SummaryRow[] = [];
    for (let position = Math.min(end, first + offset), last = Math.min(end, first + offset + limit); position < last; position++)
      items.push(row(list[position]!));
    return { total: end - first, items };
  },
};

/**
 * A range of the other instant is one run of the lists in its order: when that run is shorter than this one,
 * its matches are taken there and put in the order asked by their positions in it (a bitmap, no sort).
 */
export const walkOtherOrder: SearchStrategy = {
  name: "walk the other order's run",
  answer: (indexes, query, plan) => {
    if (!plan.otherBounded) return undefined;
    const other = shortest(indexes.orders[plan.otherOrder], query.codes);
    const [otherFirst, otherEnd] = runOf(other.list, plan.otherColumn, plan.otherRange, true);
    if (otherEnd - otherFirst >= plan.end - plan.first) return undefined;
    // The run matches every filter when its list covers the equality filters and the order's own instant is unbounded.
    const check = plan.sent > other.covers || plan.sortedBounded;
    // Each match's position in the order asked is marked in a bitmap, which is then read from the start.
    const { all, rank } = indexes.orders[query.order];
    const { list } = other;
    const matches = check ? plan.matcher(other.covers >= plan.sent) : () => true;
    const marks = indexes.marks();
    let total = 0;
    for (let position = otherFirst; position < otherEnd; position++) {
      const index = list[position]!;
      if (check && !matches(index)) continue;
      const at = rank[index]!;
      marks[at >>> 5]! |= 1 << (at & 31);
      total++;
    }
    const items = markedPositions(marks, query.offset, Math.min(total, query.offset + query.limit)).map((at) => indexes.row(all[at]!));
    marks.fill(0);
    return { total, items };
  },
};

/** The run's matches are counted; only those of the page are read. Answers every search. */
export const scanRun: SearchStrategy = {
  name: "scan the run",
  answer: ({ row }, { offset, limit }, { candidates: { list, covers }, first, end, sent, matcher: makeMatcher }) => {
    const matches = makeMatcher(covers >= sent);
    let total = 0;
    const pageEnd = offset + limit;
    const page: number[] = [];
    for (let position = first; position < end; position++) {
      const index = list[position]!;
      if (!matches(index)) continue;
      if (total >= offset && total < pageEnd) page.push(index);
      total++;
    }
    return { total, items: page.map(row) };
  },
};

/** The strategies in the order they are tried; the last answers every search. */
export const searchStrategies: readonly SearchStrategy[] = [readRun, walkOtherOrder, scanRun];

/** One page of a search and the number of matches, from the first strategy that answers. */
export function answer(indexes: Indexes, query: Query): Page {
  const plan = planOf(indexes, query);
  for (const strategy of searchStrategies) {
    const page = strategy.answer(indexes, query, plan);
    if (page) return page;
  }
  throw new Error("no search strategy answered (scanRun answers every search)");
}

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
  const [first, end] = newestFirst
    ? [prefix((value) => value > to), prefix((value) => value >= from)]
    : [prefix((value) => value < from), prefix((value) => value <= to)];
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
