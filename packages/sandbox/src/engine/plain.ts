import type { SandboxData } from "../model.ts";
import { equalityFilters, type SearchEngine, type SearchFilters, type SearchOrder, type SummaryRow } from "./filters.ts";
import { columnsOf } from "./summary.ts";

/** A conversation as the plain engine keeps it: each equality filter's value, its two instants, its page item. */
interface PlainRow {
  readonly values: readonly string[];
  readonly startedMs: number;
  readonly latestMs: number;
  readonly item: SummaryRow;
}

const encoder = new TextEncoder();

/**
 * The plain search engine: every conversation tested against every filter, then the matches sorted. It is
 * the reference the search index is checked against (the same cases run on both, and the oracle test compares
 * them over generated searches), never what serves: the search index reads the same answers off presorted lists.
 */
export class PlainEngine implements SearchEngine {
  readonly #rows: PlainRow[];

  private constructor(rows: PlainRow[]) {
    this.#rows = rows;
  }

  /** Keeps every conversation of the data, in load order. */
  static load(data: SandboxData): PlainEngine {
    return new PlainEngine(
      Array.from({ length: data.count }, (_, index) => {
        const stored = data.conversationAt(index);
        const columns = columnsOf(stored);
        return {
          values: equalityFilters.map((filter) => filter.valueOf(stored)),
          startedMs: columns.startedOnMs,
          latestMs: columns.latestMessageOnMs,
          item: { openSummary: encoder.encode(columns.openSummary), inbound: columns.latestMessageInbound },
        };
      }),
    );
  }

  search(filters: SearchFilters, order: SearchOrder, limit: number, offset: number): { total: number; items: SummaryRow[] } {
    const from = (value: number, bound: number | undefined) => bound === undefined || value >= bound;
    const upTo = (value: number, bound: number | undefined) => bound === undefined || (filters.toInclusive ? value <= bound : value < bound);
    const matches = this.#rows.filter(
      (row) =>
        equalityFilters.every((filter, at) => filters[filter.name] === undefined || row.values[at] === filters[filter.name]) &&
        from(row.startedMs, filters.startFrom) &&
        upTo(row.startedMs, filters.startTo) &&
        from(row.latestMs, filters.latestMessageFrom) &&
        upTo(row.latestMs, filters.latestMessageTo),
    );
    // Load order is kept by a stable sort; the orders that run newest first put the last loaded first among equal instants.
    const sorted =
      order === "startedOn-asc"
        ? matches.sort((a, b) => a.startedMs - b.startedMs)
        : matches.reverse().sort((a, b) => (order === "startedOn-desc" ? b.startedMs - a.startedMs : b.latestMs - a.latestMs));
    return { total: sorted.length, items: sorted.slice(offset, offset + limit).map((row) => row.item) };
  }
}
