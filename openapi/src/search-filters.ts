/**
 * The search's filters, once for every reader (the seed's table of the search's parameters, Endpoints,
 * 1): the query parameter, what a conversation is matched on, and how. The sandbox's operation and engines
 * read every filter, equality and date alike, from this table; the conformance kit's `filter_match`, its
 * search model, its edge phase and its generators too; the CLI's flags and the MCP tool's arguments come
 * from the description's parameters. So a filter added here (and its parameter in the description) is
 * served and checked with no other edit. `pageSize` and `pageIndex` page the result: they filter nothing.
 */

/**
 * How a filter matches: the same value (`equal`), or a bound of a period of an instant: its start (`from`,
 * the seed's "start of the period") or its end (`to`, "end of the period"). Dates are compared as instants,
 * read by the one date rule (`parseDateTime`; decision `dates`), never as text; whether a bound includes its
 * own instant is open (decision `date-range-end`): see `boundSide`.
 */
export type FilterMatch = "equal" | "from" | "to";

/** One filter of the search. */
export interface SearchFilter {
  /** The query parameter (`channelId`). */
  readonly name: string;
  /** What it is matched on: a field of the conversation summary, or `bot` (the conversation's bot, which the summary does not carry). */
  readonly matches: string;
  /** How: an equal value, or an ISO 8601 instant compared as an instant (never as text). */
  readonly how: FilterMatch;
}

/** Every filter of the search, in the seed's order. */
export const searchFilters = [
  { name: "agentStageId", matches: "bot", how: "equal" },
  { name: "startFromDate", matches: "startedOn", how: "from" },
  { name: "startToDate", matches: "startedOn", how: "to" },
  { name: "latestMessageFromDate", matches: "latestMessageOn", how: "from" },
  { name: "latestMessageToDate", matches: "latestMessageOn", how: "to" },
  { name: "status", matches: "status", how: "equal" },
  { name: "channelId", matches: "channelId", how: "equal" },
] as const satisfies readonly SearchFilter[];

/** The name of a search filter. */
export type SearchFilterName = (typeof searchFilters)[number]["name"];

/** A filter of the table that matches an equal value. */
export type EqualitySearchFilter = Extract<(typeof searchFilters)[number], { how: "equal" }>;

/** A filter of the table that bounds a period of an instant (`from` or `to`). */
export type DateSearchFilter = Extract<(typeof searchFilters)[number], { how: "from" | "to" }>;

/** A field of the conversation summary a date filter bounds (`startedOn`, `latestMessageOn`). */
export type InstantField = DateSearchFilter["matches"];

/** The date filters of the table, in its order. */
export const dateFilters: readonly DateSearchFilter[] = searchFilters.filter((filter): filter is DateSearchFilter => filter.how !== "equal");

/** A period of the search: the instant it bounds, and the filters of its start and of its end. */
export interface SearchPeriod {
  /** The summary's field (`startedOn`). */
  readonly field: InstantField;
  /** The filter of its start (`startFromDate`). */
  readonly from: DateSearchFilter["name"];
  /** The filter of its end (`startToDate`). */
  readonly to: DateSearchFilter["name"];
}

/** Every period of the search, from the table: the `from` and the `to` filter of each instant field, in the table's order. */
export const searchPeriods: readonly SearchPeriod[] = [...new Set(dateFilters.map((filter) => filter.matches))].map((field) => {
  const side = (how: DateSearchFilter["how"]) => {
    const filter = dateFilters.find((candidate) => candidate.matches === field && candidate.how === how);
    if (!filter) throw new Error(`searchFilters: ${field} has no "${how}" filter (a period needs both bounds)`);
    return filter.name;
  };
  return { field, from: side("from"), to: side("to") };
});

/**
 * Where an instant stands against one date filter's bound (both epoch milliseconds): inside the period, outside
 * it, or `at` the bound's own instant, which the service leaves open (decision `date-range-end`: the sandbox's
 * `--date-to`, the conformance kit's `decisions.dateRangeBounds`). The one comparison of a date filter.
 */
export function boundSide(how: DateSearchFilter["how"], instant: number, bound: number): "inside" | "outside" | "at" {
  if (instant === bound) return "at";
  return (how === "from" ? instant > bound : instant < bound) ? "inside" : "outside";
}
