import type { ConversationPage } from "@bot-conversation/types";
import type { Exchange } from "../case.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { type ExchangeCheck, notApplicable, notJudged, shown, type Verdict } from "./types.ts";

/** A JSON object: not null, not an array. */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The page of a 200 search response, or undefined for any other exchange (other checks cover those). A body
 * is a page only in the shape every reader of a page relies on: an object whose `items` is an array of objects
 * and whose counts are safe integers; any other body (an `items` of another shape, an item that is no object,
 * a count past 2^53) is not judged by the page checks, and `response_schema_conformance` reports it.
 */
export function pageOf(exchange: Exchange): ConversationPage | undefined {
  if (exchange.case.operationId !== "searchConversations" || exchange.status !== 200 || !exchange.isJson) return undefined;
  const page = exchange.json;
  const numbers = ["pageIndex", "pageSize", "totalItemCount", "totalPageCount", "fromItemInclusive", "toItemExclusive"] as const;
  if (!isObject(page) || !Array.isArray(page["items"]) || !page["items"].every(isObject) || !numbers.every((key) => Number.isSafeInteger(page[key])))
    return undefined;
  return page as unknown as ConversationPage;
}

/**
 * The page envelope adds up: the page asked for is the page returned, `totalPageCount` is the ceiling of
 * `totalItemCount / pageSize` (for an empty result 0, or 1 for one empty page), the items are `toItemExclusive - fromItemInclusive` in number and start at
 * the page's position, `hasMore` says whether a later page exists, and a page past the end is empty.
 */
export const envelopeMath: ExchangeCheck = (exchange, { pageBase }) => {
  const page = pageOf(exchange);
  if (!page)
    return exchange.case.operationId === "searchConversations" && exchange.status === 200
      ? notJudged("the 200 body is not a page of conversations")
      : notApplicable;
  const problems: string[] = [];
  const expect = (what: string, expected: unknown, received: unknown): void => {
    if (expected !== received) problems.push(`${what}: expected ${shown(expected)}, got ${shown(received)}`);
  };
  const { query } = exchange.case;
  if (query["pageIndex"] !== undefined) expect("pageIndex (as requested)", Number(query["pageIndex"]), page.pageIndex);
  if (query["pageSize"] !== undefined && page.totalItemCount > 0) {
    if (page.pageSize > Number(query["pageSize"])) problems.push(`pageSize: expected at most the requested ${query["pageSize"]}, got ${page.pageSize}`);
  }
  if (page.items.length > page.pageSize) problems.push(`items: expected at most pageSize ${page.pageSize}, got ${page.items.length}`);
  // An empty result may count no page or one empty page: both readings fit "total number of pages" (the empty_result_counts finding says which).
  const oneEmptyPage = page.totalItemCount === 0 && page.totalPageCount === 1;
  if (page.pageSize > 0 && !oneEmptyPage)
    expect("totalPageCount (ceil(totalItemCount / pageSize))", Math.ceil(page.totalItemCount / page.pageSize), page.totalPageCount);
  const position = page.pageIndex - pageBase;
  if (position >= 0 && position < page.totalPageCount) {
    const from = position * page.pageSize;
    expect("fromItemInclusive", from, page.fromItemInclusive);
    expect("toItemExclusive", Math.min(from + page.pageSize, page.totalItemCount), page.toItemExclusive);
    expect("items.length (toItemExclusive - fromItemInclusive)", page.toItemExclusive - page.fromItemInclusive, page.items.length);
    expect("hasMore", position + 1 < page.totalPageCount, page.hasMore);
  } else if (position >= page.totalPageCount) {
    expect(`items.length past the last page (${page.totalPageCount})`, 0, page.items.length);
    expect("hasMore past the last page", false, page.hasMore);
  }
  return problems.length === 0 ? undefined : problems.join("; ");
};

/**
 * `paging_walk`: the pages of one walk, read in order (`pageIndex + 1` while `hasMore`), yield
 * `totalItemCount` distinct conversations (as the first page states it), no duplicate, and end within
 * `totalPageCount` pages. Not applicable unless every exchange is a page.
 */
export function pagingWalk(walked: readonly Exchange[]): Verdict {
  const pages = walked.map(pageOf);
  const start = pages[0];
  if (!start || !pages.every((page) => page !== undefined)) return notApplicable;
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const item of pages.flatMap((page) => page!.items)) {
    if (seen.has(item.id)) duplicates.push(item.id);
    seen.add(item.id);
  }
  const problems: string[] = [];
  if (pages.length > start.totalPageCount && pages.length > 1)
    problems.push(`hasMore still true after ${pages.length} pages, beyond totalPageCount ${start.totalPageCount}`);
  if (duplicates.length > 0) problems.push(`${duplicates.length} duplicate items (first ${JSON.stringify(duplicates[0])})`);
  if (seen.size !== start.totalItemCount)
    problems.push(`${seen.size} distinct conversations over ${pages.length} pages, but totalItemCount is ${start.totalItemCount}`);
  return problems.length === 0 ? undefined : `expected the walk to yield totalItemCount distinct conversations; got ${problems.join("; ")}`;
}

/** The `envelope-math` probe family. */
export const envelopeMathFamily = {
  name: "envelope-math",
  probes: "Every 200 search page read: the envelope's counts and indexes add up.",
  rules: [
    "page-has-more",
    "page-index",
    "page-size",
    "page-total-item-count",
    "page-total-page-count",
    "page-from-item",
    "page-to-item",
    "search-page-size",
    "search-page-index",
  ],
} as const satisfies ProbeFamily;

/** The `paging-walk` probe family. */
export const pagingWalkFamily = {
  name: "paging-walk",
  probes: "A walk of every page: totalItemCount distinct conversations, no duplicates.",
  rules: ["summary-id", "page-has-more", "page-total-item-count", "search-page-index"],
} as const satisfies ProbeFamily;

/** The catalog's entry of `envelope_math`. */
export const envelopeMathEntry = {
  name: "envelope_math",
  description: "The page envelope adds up on every page.",
  rule: "Seed, Page envelope: pageIndex, pageSize, totalItemCount, totalPageCount, fromItemInclusive (inclusive), toItemExclusive (exclusive), hasMore.",
  onEvery: "page",
  check: envelopeMath,
  phases: [
    "searchConversations: first page",
    "searchConversations: edges",
    "searchConversations: combined filters",
    "searchConversations: generated searches against the model of the server's data",
    "searchConversations: generated requests",
  ],
  families: [envelopeMathFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `paging_walk`. */
export const pagingWalkEntry = {
  name: "paging_walk",
  description: "Walking every page yields totalItemCount distinct conversations, no duplicates.",
  rule: "Seed, Page envelope: totalItemCount is the total number of matching conversations; hasMore says whether more pages follow.",
  phases: ["searchConversations: walk every page, and again at another page size"],
  families: [pagingWalkFamily],
} as const satisfies CatalogEntry;
