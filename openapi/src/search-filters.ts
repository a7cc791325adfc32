/**
 * The search's filters, once for every reader (the seed's table of the search's parameters, Endpoints,
 * 1): the query parameter, what a conversation is matched on, and how. The sandbox's engine builds its
 * equality filters from this table and the conformance kit's `filter_match` judges every filter in it,
 * so a filter added here is served and checked with no edit in either. `pageSize` and `pageIndex` page
 * the result: they filter nothing.
 */

/** How a filter matches: the same value, or an instant at or after (`from`) or before (`to`) the one sent. */
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
