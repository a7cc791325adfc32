import { boundSide, dateFilters, type InstantField } from "@bot-conversation/openapi";
import type { SandboxData } from "../model.ts";
import { equalityFilters, type SearchEngine, type SearchFilters, type SearchOrder, type SummaryRow } from "./filters.ts";
import { columnsOf, openSummaryOf } from "./summary.ts";

/** A conversation as the plain engine keeps it: each equality filter's value, each instant a date filter bounds, its page item. */
interface PlainRow {
  readonly values: readonly (string | null)[];
  readonly instants: Readonly<Record<InstantField, number>>;
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
          instants: { startedOn: columns.startedOnMs, latestMessageOn: columns.latestMessageOnMs },
          item: { openSummary: encoder.encode(openSummaryOf(stored)), inbound: columns.latestMessageInbound },
        };
      }),
    );
  }

  search(filters: SearchFilters, order: SearchOrder, limit: number, offset: number): { total: number; items: SummaryRow[] } {
    // Each date filter of the table by the one comparison: a bound's own instant is inside for `from`, and for `to` when `toInclusive`.
    const withinBound = (row: PlainRow) =>
      dateFilters.every((filter) => {
        const bound = filters.periods?.[filter.matches]?.[filter.how];
        if (bound === undefined) return true;
        const side = boundSide(filter.how, row.instants[filter.matches], bound);
        return side === "inside" || (side === "at" && (filter.how === "from" || filters.toInclusive));
      });
    const matches = this.#rows.filter(
      (row) => equalityFilters.every((filter, at) => filters[filter.name] === undefined || row.values[at] === filters[filter.name]) && withinBound(row),
    );
    // Load order is kept by a stable sort; the orders that run newest first put the last loaded first among equal instants.
    const started = (row: PlainRow) => row.instants.startedOn;
    const sorted =
      order === "startedOn-asc"
        ? matches.sort((a, b) => started(a) - started(b))
        : matches.reverse().sort((a, b) => (order === "startedOn-desc" ? started(b) - started(a) : b.instants.latestMessageOn - a.instants.latestMessageOn));
    return { total: sorted.length, items: sorted.slice(offset, offset + limit).map((row) => row.item) };
  }
}
