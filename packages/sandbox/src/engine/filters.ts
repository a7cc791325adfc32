/** What a search asks and answers, and the table of its equality filters: shared by the store, the plain engine and the operation. */
import { type EqualitySearchFilter, type InstantField, searchFilters } from "@bot-conversation/openapi";
import type { StoredConversation } from "../model.ts";

/** An equality filter of the search: the query parameter it is sent as, and the value a conversation has for it. */
export interface EqualityFilter {
  /** The query parameter, and the field of `SearchFilters`. */
  readonly name: string;
  /** The conversation's value, compared with the one sent (exactly: `statusCase` is applied before); `null` (a nullable field's) matches no value sent. */
  readonly valueOf: (stored: StoredConversation) => string | null;
}

/** The value a conversation has for what an equality filter matches: its bot, or its own field. */
const valueOfMatched =
  (matches: EqualitySearchFilter["matches"]) =>
  (stored: StoredConversation): string | null =>
    matches === "bot" ? stored.agentStageId : stored.conversation[matches];

/**
 * Every equality filter of a search, from the search filters' one table (`searchFilters` of
 * `@bot-conversation/openapi`, which the conformance kit's `filter_match` reads too). This table drives
 * each of them everywhere: the operation reads the parameter, the store keeps a column of codes and a
 * list per value in each order, picks the shortest list the filters sent name, matches and counts the
 * rest, and the plain engine matches them. Adding a filter is one entry there (the description lists
 * the parameter).
 */
export const equalityFilters: readonly { readonly name: EqualitySearchFilter["name"]; readonly valueOf: (stored: StoredConversation) => string | null }[] =
  searchFilters
    .filter((filter): filter is EqualitySearchFilter => filter.how === "equal")
    .map((filter) => ({ name: filter.name, valueOf: valueOfMatched(filter.matches) }));

/** The name of an equality filter. */
export type EqualityFilterName = EqualitySearchFilter["name"];

/**
 * Combinations of equality filters with lists of their own in each order, for a search that sends each of them: a
 * bot's conversations in one status, or on one channel (the filters a frontend combines most), and all three at once
 * (without it, a search sending every filter scanned a pair's list of thousands for the third).
 */
export const combinedFilters: readonly (readonly EqualityFilterName[])[] = [
  ["agentStageId", "status"],
  ["agentStageId", "channelId"],
  ["agentStageId", "status", "channelId"],
];

/** Where an equality filter stands in `equalityFilters`: the place of its column, its codes and its lists. */
export function placeOf(name: EqualityFilterName): number {
  return equalityFilters.findIndex((filter) => filter.name === name);
}

/** Each combination of `combinedFilters` as the places of its filters. */
export const combinedPlaces: readonly (readonly number[])[] = combinedFilters.map((names) => names.map(placeOf));

/** The bounds sent for one instant, epoch milliseconds: its `from` filter's (inclusive) and its `to` filter's. */
export interface Period {
  /** The start: instants at or after it. */
  readonly from?: number | undefined;
  /** The end: instants before it, or at it too when `toInclusive`. */
  readonly to?: number | undefined;
}

/** Filters of a search, already checked: each equality filter's value as sent; each date filter's instant in its field's period. */
export interface SearchFilters extends Readonly<Partial<Record<EqualityFilterName, string | undefined>>> {
  /** Per instant the table's date filters bound (their `matches`: `startedOn`, `latestMessageOn`), the bounds sent. */
  readonly periods?: Readonly<Partial<Record<InstantField, Period>>> | undefined;
  /** Whether the `to` bounds include their instant (`--date-to`; the `from` bounds always do). */
  readonly toInclusive: boolean;
}

/**
 * The filters of a query its parameters' schemas already checked (the search's `queryChecker`), read by the search
 * filters' one table: each equality filter's value as sent, each date filter's instant (epoch milliseconds, read
 * once by the query's check with the one date rule, `parseDateTime`) as the `from` or `to` of its field's period.
 */
export function searchFiltersOf(query: Readonly<Record<string, string | number | undefined>>, toInclusive: boolean): SearchFilters {
  const equal: Record<string, string> = {};
  const periods: Partial<Record<InstantField, { from?: number; to?: number }>> = {};
  for (const filter of searchFilters) {
    const value = query[filter.name];
    if (value === undefined) continue;
    if (filter.how === "equal") equal[filter.name] = String(value);
    else if (typeof value === "number") (periods[filter.matches] ??= {})[filter.how] = value;
    else throw new TypeError(`${filter.name} must be an instant (epoch milliseconds, as the query's check reads it); got text`);
  }
  return { ...equal, periods, toInclusive };
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

/** A search engine: one page of the conversations matching every filter, in the order asked, and the number of matches. */
export interface SearchEngine {
  search(filters: SearchFilters, order: SearchOrder, limit: number, offset: number): { total: number; items: SummaryRow[] };
}
