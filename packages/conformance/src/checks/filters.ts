import { parseDateTime } from "@bot-conversation/client";
import type { RuleId } from "@bot-conversation/openapi";
import { boundSide, type DateSearchFilter, searchFilters } from "@bot-conversation/openapi";
import type { ConversationSummary } from "@bot-conversation/types";
import type { AcceptedDecisions } from "../decisions.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { pageOf } from "./paging.ts";
import { type ExchangeCheck, notApplicable, notJudged, shown } from "./types.ts";

/** Whether a date-time names one instant by the client's one date rule (`parseDateTime`: seconds and an offset). */
export const hasOffset = (text: unknown): text is string => !Number.isNaN(parseDateTime(text));

/**
 * An item against one date bound, compared as instants (never as text). An item at the bound's exact
 * instant is judged only when the team's config decides whether bounds include it (the service does
 * not say): otherwise both answers hold.
 */
const dateBound =
  (field: string, how: DateSearchFilter["how"]) =>
  (item: ConversationSummary, value: string, decisions: AcceptedDecisions): string | undefined => {
    const own = (item as unknown as Record<string, unknown>)[field];
    // A date-time without an offset names no instant: that is response_schema_conformance's to report.
    if (!hasOffset(own)) return undefined;
    const instant = parseDateTime(own);
    const bound = parseDateTime(value);
    // A bound the one date rule cannot read (a date alone, a local time: an open point the kit probes) is not judged here.
    if (Number.isNaN(bound)) return undefined;
    const side = boundSide(how, instant, bound);
    if (side === "at")
      return decisions.dateRangeBounds === "exclusive"
        ? `${field} ${own} is the bound ${value} itself, which the accepted decision dateRangeBounds: exclusive leaves out`
        : undefined;
    return side === "inside" ? undefined : `${field} ${own} is ${how === "from" ? "before" : "after"} ${value}`;
  };

/** An item against an equality filter on one of its fields. */
const equalTo =
  (field: string) =>
  (item: ConversationSummary, value: string): string | undefined => {
    const own = (item as unknown as Record<string, unknown>)[field];
    return own === value ? undefined : `${field} ${shown(own)} is not ${shown(value)}`;
  };

/**
 * How an item matches each search filter, built from the search filters' one table (`searchFilters` of
 * `@bot-conversation/openapi`, which the sandbox's engine reads too): a filter added there is judged
 * here with no edit. A filter on the bot is left out: the summary does not carry it (`bot_filter_match`
 * judges it by what it must not find).
 */
const filters: Record<string, (item: ConversationSummary, value: string, decisions: AcceptedDecisions) => string | undefined> = Object.fromEntries(
  searchFilters
    .filter((filter) => filter.matches !== "bot")
    .map((filter) => [filter.name, filter.how === "equal" ? equalTo(filter.matches) : dateBound(filter.matches, filter.how)]),
);

/** Names of the search filters an item can be checked against. */
export const filterNames = Object.keys(filters);

/** Every item of a filtered search matches each filter sent (`status`, `channelId`, the date ranges, bounds included). */
export const filterMatch: ExchangeCheck = (exchange, { decisions }) => {
  if (!Object.keys(exchange.case.query).some((name) => name in filters)) return notApplicable;
  const page = pageOf(exchange);
  if (!page)
    return exchange.case.operationId === "searchConversations" && exchange.status === 200
      ? notJudged("the 200 body is not a page of conversations")
      : notApplicable;
  // An empty value may be read as the parameter's absence (as HTML forms send an empty field) or as a value no
  // conversation has: the seed says neither, so a query with one is not judged.
  const empty = Object.keys(exchange.case.query).find((name) => name in filters && exchange.case.query[name] === "");
  if (empty !== undefined) return notJudged(`${empty} is empty: whether an empty value filters or is read as absent is not shown`);
  const problems = page.items.flatMap((item) =>
    Object.entries(exchange.case.query).flatMap(([name, value]) => {
      const problem = filters[name]?.(item, value, decisions);
      return problem ? [`item ${shown(item.id)}: ${problem}`] : [];
    }),
  );
  return problems.length === 0
    ? undefined
    : `expected every item to match the filters; ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ""}`;
};

/** The rules of the search's date filters (Endpoints, 1: the periods of the start and of the last message), which several families test. */
export const dateFilterRules = [
  "search-start-from-date",
  "search-start-to-date",
  "search-latest-message-from-date",
  "search-latest-message-to-date",
] as const satisfies readonly RuleId[];

/** The `filter-match` probe family. */
export const filterMatchFamily = {
  name: "filter-match",
  probes: "Every item of every filtered page matches each filter sent, dates as instants, each filter at its edges (±1 ms of an item, another UTC offset).",
  rules: [
    "dates-iso-8601",
    "summary-channel-id",
    "summary-status",
    "summary-started-on",
    "summary-latest-message-on",
    "page-items",
    "enum-channel-identifiers",
    ...dateFilterRules,
    "search-status",
    "search-channel-id",
  ],
} as const satisfies ProbeFamily;

/** The catalog's entry of `filter_match`. */
export const filterMatchEntry = {
  name: "filter_match",
  description: "Every returned item matches each filter sent, dates compared as instants.",
  rule: "Seed, Search: status, channelId and the periods (startFromDate/startToDate for the start, latestMessageFromDate/latestMessageToDate for the last message); dates are ISO 8601.",
  onEvery: "page",
  check: filterMatch,
  phases: [
    "searchConversations: edges",
    "searchConversations: combined filters",
    "searchConversations: generated searches against the model of the server's data",
    "searchConversations: the bot filter and searches that match nothing",
    "searchConversations: generated requests",
  ],
  families: [filterMatchFamily],
} as const satisfies CatalogEntry;
