import { parseDateTime } from "@bot-conversation/client";
import { type SearchFilter, type SearchPeriod, searchFilters, searchPeriods } from "@bot-conversation/openapi";
import { caseFor, type Exchange } from "../case.ts";
import { pageChecks } from "../checks/index.ts";
import { botWithinAll, emptySearchPage, filterCombination, findsNoConversation } from "../checks/oracles.ts";
import { pageOf } from "../checks/paging.ts";
import type { ExchangeCheck } from "../checks/types.ts";
import { operationOf } from "../description.ts";
import { nextPageQuery } from "../links.ts";
import type { Session } from "../session.ts";
import { unknownIdentifier } from "./triggers.ts";

const operationId = "searchConversations";

/** Pages a walk of one filter reads at most; a filter finding more is left out of the oracles. */
const maxOracleWalkPages = 8;

/** A walk of one search: the pages read, in order. */
type Walk = readonly Exchange[];

/** The bot filter (when given) every oracle search carries, so the oracles look at the bot's conversations. */
const botFilter = (session: Session): Record<string, string> => (session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {});

async function search(session: Session, query: Record<string, string>, more: ReadonlyArray<readonly [Parameters<Session["record"]>[0], ExchangeCheck]> = []) {
  if (!session.canSend) return undefined;
  return (await session.exchange(caseFor(operationOf(session.description, operationId), { query }), [...more, ...pageChecks]))?.exchange;
}

/**
 * Reads every page of a search at a page size that makes about three pages (never above the server's
 * default), following `pageIndex + 1` while `hasMore`; undefined when a page is not a page or the
 * search needs more than `maxOracleWalkPages` pages.
 */
async function walk(session: Session, query: Record<string, string>): Promise<Walk | undefined> {
  const first = await search(session, query);
  const firstPage = first && pageOf(first);
  if (!firstPage) return undefined;
  const pageSize = Math.max(1, Math.min(firstPage.pageSize, Math.ceil(firstPage.totalItemCount / 3)));
  if (Math.ceil(firstPage.totalItemCount / pageSize) > maxOracleWalkPages) return undefined;
  const pages: Exchange[] = [];
  let next: Record<string, string> = { ...query, pageSize: String(pageSize), pageIndex: String(session.knowledge.pageBase) };
  for (let read = 0; read <= maxOracleWalkPages; read++) {
    const answer = await search(session, next);
    const page = answer && pageOf(answer);
    if (!answer || !page) return undefined;
    pages.push(answer);
    if (!page.hasMore || page.items.length === 0) return pages;
    // The description's nextPage link: the filters and the reported pageSize carried over, pageIndex + 1.
    next = nextPageQuery(session.description, answer.case, answer.json);
  }
  return pages;
}

/** The most frequent value of a field among the conversations seen. */
function mostFrequent(session: Session, field: string): string | undefined {
  const counts = new Map<string, number>();
  for (const item of session.knowledge.items.values()) {
    const value = item[field];
    if (typeof value === "string") counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts.entries()].sort((left, right) => right[1] - left[1])[0]?.[0];
}

/** The median instant of a date field among the conversations seen, written as an instant a bound can carry. */
function medianInstant(session: Session, field: string): string | undefined {
  const instants = [...session.knowledge.items.values()]
    .map((item) => parseDateTime(item[field]))
    .filter((instant) => !Number.isNaN(instant))
    .sort((left, right) => left - right);
  const middle = instants[Math.floor(instants.length / 2)];
  return middle === undefined ? undefined : new Date(middle).toISOString();
}

/**
 * The filters `filter_combination` pairs, from the search filters' table (`table`, `searchFilters`) and its periods:
 * every two of its equality filters on a field of the conversation (the bot filter is every oracle search's), and
 * each of them with a bound of a period (the first period's start and the last period's end, taken in turn from the
 * last: with two of each, every bound is paired). A filter added to the table is paired with no other edit.
 */
export function filterPairs(table: readonly SearchFilter[], periods: readonly SearchPeriod[]): [string, string][] {
  const equal = table.filter((filter) => filter.how === "equal" && filter.matches !== "bot").map((filter) => filter.name);
  const bounds = [periods[0]?.from, periods.at(-1)?.to].filter((name) => name !== undefined);
  return [
    ...equal.flatMap((left, index) => equal.slice(index + 1).map((right): [string, string] => [left, right])),
    ...(bounds.length === 0 ? [] : equal.map((name, index): [string, string] => [name, bounds[(index + 1) % bounds.length]!])),
  ];
}

/**
 * `filter_combination`: two filters together find exactly the conversations both find alone. Each
 * filter alone and the pair are walked page by page (every page also checked by `envelope_math` and
 * `filter_match`), so a server that ORs the filters, or drops one on a later page, is caught. The pairs are
 * `filterPairs` of the search filters' table: an equality filter at the most frequent value of its field, a
 * period's bound at the median of its field.
 */
export async function checkFilterCombinations(session: Session): Promise<void> {
  const filters: Record<string, string> = {};
  for (const filter of searchFilters) {
    const value =
      filter.how === "equal" ? (filter.matches === "bot" ? undefined : mostFrequent(session, filter.matches)) : medianInstant(session, filter.matches);
    if (value) filters[filter.name] = value;
  }
  const pairs = filterPairs(searchFilters, searchPeriods).filter((pair) => pair.every((name) => filters[name] !== undefined));
  if (pairs.length === 0) return session.results.skip("filter_combination", "no search returned conversations to take two filter values from");
  const alone = new Map<string, Walk | undefined>();
  const walkAlone = async (name: string): Promise<Walk | undefined> => {
    if (!alone.has(name)) alone.set(name, await walk(session, { ...botFilter(session), [name]: filters[name]! }));
    return alone.get(name);
  };
  for (const [left, right] of pairs) {
    const leftWalk = await walkAlone(left);
    const rightWalk = await walkAlone(right);
    const both = await walk(session, { ...botFilter(session), [left]: filters[left]!, [right]: filters[right]! });
    if (!leftWalk || !rightWalk || !both) continue;
    const verdict = filterCombination(`${left}=${filters[left]} and ${right}=${filters[right]}`, leftWalk, rightWalk, both);
    session.record("filter_combination", both.at(-1)!, verdict, [...leftWalk, ...rightWalk, ...both.slice(0, -1)]);
  }
}

/**
 * `bot_filter_match`: the items carry no bot, so the bot filter is checked by what it must not find:
 * an unknown bot finds nothing (near misses of the known one: `phases/identifiers.ts`); the
 * known bot's total is at most the total of a search without the bot filter. Returns the status of
 * the unknown bot's search, for discovery.
 */
export async function checkBotFilter(session: Session): Promise<number | undefined> {
  const unknown = await search(session, { agentStageId: unknownIdentifier(session, "bot") }, [
    ["bot_filter_match", findsNoConversation("an unknown agentStageId")],
  ]);
  const bot = session.settings.agentStageId;
  // The near misses of the known bot are the bot-filter-near-misses family's (phases/identifiers.ts).
  if (!bot) return unknown?.status;
  const mine = await search(session, { agentStageId: bot });
  const all = await search(session, {});
  if (mine && all) session.record("bot_filter_match", all, botWithinAll(mine, all), [mine]);
  return unknown?.status;
}

/**
 * `empty_search_page`: searches that match nothing are 200 with an empty page: a period after every
 * conversation seen, and a near miss of a channel seen (a prefix), whose items `filter_match` holds
 * to the exact channel. Another letter case of a channel is never sent: whether the service ignores
 * letter case in `channelId` is not shown.
 */
export async function checkEmptySearches(session: Session): Promise<void> {
  // A period after every conversation seen: the search filters' first period, started a day after its last instant.
  const period = searchPeriods[0];
  const instants = period
    ? [...session.knowledge.items.values()].map((item) => parseDateTime(item[period.field])).filter((instant) => !Number.isNaN(instant))
    : [];
  if (period && instants.length > 0)
    await search(session, { ...botFilter(session), [period.from]: new Date(Math.max(...instants) + 86_400_000).toISOString() }, [
      ["empty_search_page", emptySearchPage],
    ]);
  const channelId = mostFrequent(session, "channelId");
  const known = new Set(session.knowledge.channelIds);
  const nearMisses = channelId && channelId.length > 1 ? [channelId.slice(0, Math.ceil(channelId.length / 2))] : [];
  for (const nearMiss of nearMisses) {
    if (nearMiss !== undefined && !known.has(nearMiss))
      await search(session, { ...botFilter(session), channelId: nearMiss }, [["empty_search_page", emptySearchPage]]);
  }
  if (instants.length === 0 && !channelId)
    session.results.skip("empty_search_page", "no search returned a conversation to build a search that matches nothing from");
}
