import type { Exchange } from "../case.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { dateFilterRules } from "./filters.ts";
import { pageOf } from "./paging.ts";
import { type ExchangeCheck, notApplicable, notJudged, shown, type Verdict } from "./types.ts";

/**
 * The checks that hold a search to what is already known about the conversations: one seen before is
 * found by a period around it, two filters find what each finds alone, an unknown bot finds nothing.
 */

/** The conversations of a walk's pages, by id. */
const idsOf = (pages: readonly Exchange[]): Set<string> => new Set(pages.flatMap((exchange) => pageOf(exchange)?.items.map((item) => item.id) ?? []));

const listed = (ids: Iterable<string>): string =>
  [...ids]
    .slice(0, 3)
    .map((id) => JSON.stringify(id))
    .join(", ");

/**
 * `filter_inclusion`: a search for a period around an item's instant (`query`) finds that item: it is on
 * the page, or the page says why it cannot tell (more results than the page holds).
 */
export const filterInclusion =
  (item: Record<string, unknown>, field: string, query: Record<string, string>): ExchangeCheck =>
  (exchange) => {
    const page = pageOf(exchange);
    if (!page) return notApplicable;
    const id = item["id"] as string;
    if (page.items.some((entry) => entry.id === id)) return undefined;
    if (page.items.length < page.totalItemCount) return notJudged("the conversation may be on a later page of the period's results");
    return `expected conversation ${shown(id)} (${field} ${item[field] as string}) among the results of ${Object.entries(query)
      .map(([name, value]) => `${name}=${value}`)
      .join("&")}; got ${page.totalItemCount} conversations without it`;
  };

/** `filter_inclusion` for a period whose bounds are an item's exact instant, with no decision on whether bounds include it: either answer holds, so it is not judged. */
export const undecidedBounds: ExchangeCheck = () =>
  notJudged("a period whose bounds are an item's exact instant: the service does not say whether bounds include it (set decisions.dateRangeBounds)");

/**
 * `filter_combination`: two filters together (`both`, the pages of a walk) find exactly the
 * conversations each finds alone (`left`, `right`, the pages of their walks); `what` names the two.
 */
export function filterCombination(what: string, left: readonly Exchange[], right: readonly Exchange[], both: readonly Exchange[]): Verdict {
  const rightIds = idsOf(right);
  const expected = new Set([...idsOf(left)].filter((id) => rightIds.has(id)));
  const found = idsOf(both);
  const extra = [...found].filter((id) => !expected.has(id));
  const missing = [...expected].filter((id) => !found.has(id));
  if (extra.length === 0 && missing.length === 0) return undefined;
  return `expected ${what} together to find the ${expected.size} conversations each finds alone; got ${found.size} over ${both.length} pages${extra.length > 0 ? `, ${extra.length} not found by both alone (${listed(extra)})` : ""}${missing.length > 0 ? `, ${missing.length} missing (${listed(missing)})` : ""}`;
}

/** `bot_filter_match`: a search for a bot that is not the known one (`what`) finds nothing: a 200 page must be empty (a 404 is an answer the seed does not rule out: a finding). */
export const findsNoConversation =
  (what: string): ExchangeCheck =>
  (exchange) => {
    const page = pageOf(exchange);
    if (!page) return notApplicable;
    return page.totalItemCount === 0 && page.items.length === 0
      ? undefined
      : `expected no conversation for ${what}; got totalItemCount ${page.totalItemCount} with ${page.items.length} items`;
  };

/**
 * `bot_filter_match` for a near miss of the known bot's id (`what`): it finds nothing, or, where the server has a bot
 * of that very id, none of the known bot's conversations (`mine`, its walk): a conversation is between end users and
 * one bot ("a chatbot (a bot, identified by agentStageId)"), so two bots share none. Another bot's own conversations
 * are not judged.
 */
export const nearMissOfBot =
  (what: string, mine: ReadonlySet<string>): ExchangeCheck =>
  (exchange) => {
    const page = pageOf(exchange);
    if (!page) return notApplicable;
    if (page.totalItemCount === 0 && page.items.length === 0) return undefined;
    if (mine.size === 0) return `expected no conversation for ${what}; got totalItemCount ${page.totalItemCount} with ${page.items.length} items`;
    const shared = page.items.filter((item) => mine.has(item.id)).map((item) => item.id);
    if (shared.length > 0)
      return `expected none of the known bot's conversations for ${what} (a conversation is with one bot); got ${shared.length} of them (${listed(shared)})`;
    if (page.items.length === 0) return `expected no conversation for ${what}; got totalItemCount ${page.totalItemCount} with no item`;
    return notJudged(`${what} names another bot the server has: its conversations are none of the known bot's`);
  };

/** Whether a near miss's search found another bot's own conversations (`nearMissOfBot` leaves those unjudged). */
export const foundAnotherBot = (exchange: Exchange, mine: ReadonlySet<string>): boolean => {
  const page = pageOf(exchange);
  return mine.size > 0 && page !== undefined && page.items.length > 0 && page.items.every((item) => !mine.has(item.id));
};

/** The conversations of a walk's pages, by id (none without a walk). */
export const walkedIds = (pages: readonly Exchange[] | undefined): Set<string> => idsOf(pages ?? []);

/** `bot_filter_match`: the known bot's search (`mine`) finds at most as many conversations as the search without the bot filter (`all`). */
export function botWithinAll(mine: Exchange, all: Exchange): Verdict {
  const minePage = pageOf(mine);
  const allPage = pageOf(all);
  if (!minePage || !allPage) return notApplicable;
  return minePage.totalItemCount <= allPage.totalItemCount
    ? undefined
    : `expected the bot's ${minePage.totalItemCount} conversations to be among all ${allPage.totalItemCount}; got more for one bot than for all`;
}

/** `empty_search_page`: a search known to match nothing is 200 with a page (an empty one: a page with items is `filter_match`'s to judge). */
export const emptySearchPage: ExchangeCheck = (exchange) => {
  if (exchange.status >= 500) return notApplicable; // not_a_server_error's to report
  if (exchange.status === 200) return pageOf(exchange) ? undefined : notJudged("the 200 body is not a page of conversations");
  return `expected 200 with an empty page for a search that matches nothing; got ${exchange.status}`;
};

/** The `bot-filter-near-misses` probe family, judged on its own tagged probes. */
export const botFilterNearMissesFamily = {
  name: "bot-filter-near-misses",
  probes: "A search for the known bot cut by its last character, with a character more, and for an unknown bot: no conversation.",
  rules: ["search-agent-stage-id"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The `filter-inclusion` probe family. */
export const filterInclusionFamily = {
  name: "filter-inclusion",
  probes: "A period of ±1 ms around a conversation's instant finds it.",
  rules: ["summary-started-on", "summary-latest-message-on", ...dateFilterRules],
} as const satisfies ProbeFamily;

/** The `filter-combination` probe family. */
export const filterCombinationFamily = {
  name: "filter-combination",
  probes: "Two filters together find what each finds alone, every page walked.",
  rules: ["page-total-item-count", "search-status", "search-channel-id"],
} as const satisfies ProbeFamily;

/** The `empty-search` probe family. */
export const emptySearchFamily = {
  name: "empty-search",
  probes: "Searches that match nothing (a period after every conversation, a prefix of a channel): 200 with an empty page.",
  rules: ["enum-channel-identifiers", "search-channel-id", "search-response"],
} as const satisfies ProbeFamily;

/** The catalog's entry of `filter_inclusion`. */
export const filterInclusionEntry = {
  name: "filter_inclusion",
  description: "A conversation known to match a filter is found by it.",
  rule: "Seed, Search: the search returns the conversations matching the filter (totalItemCount is the number of matching conversations).",
  phases: ["searchConversations: edges"],
  families: [filterInclusionFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `filter_combination`. */
export const filterCombinationEntry = {
  name: "filter_combination",
  description: "Two filters together find exactly the conversations each finds alone, on every page of the walk.",
  rule: "Seed, Search: the parameters are filters of one search; a conversation matches when it matches each one sent.",
  phases: ["searchConversations: combined filters"],
  families: [filterCombinationFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `bot_filter_match`. */
export const botFilterMatchEntry = {
  name: "bot_filter_match",
  description:
    "agentStageId finds only that bot's conversations: an unknown bot or a near miss of a known one finds none; a bot's conversations are among all.",
  rule: "Seed, Search: agentStageId is the bot identifier; the search returns the conversations of that bot.",
  phases: ["searchConversations: the bot filter and searches that match nothing", "identifiers: near misses and encodings of the bot's id"],
  families: [botFilterNearMissesFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `empty_search_page`. */
export const emptySearchPageEntry = {
  name: "empty_search_page",
  description: "A search that matches nothing is 200 with an empty page.",
  rule: "Seed, Search: Response 200 is the page envelope; totalItemCount is the number of matching conversations, which may be 0.",
  phases: ["searchConversations: the bot filter and searches that match nothing"],
  families: [emptySearchFamily],
} as const satisfies CatalogEntry;
