import type { ConversationPage } from "@bot-conversation/types";
import type { Exchange } from "../case.ts";
import type { ModelAnswer, SearchModel } from "../model.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { dateFilterRules } from "./filters.ts";
import { pageOf } from "./paging.ts";
import { type ExchangeCheck, notJudged, shown, type Verdict } from "./types.ts";

/** A value as canonical JSON: object keys sorted, so two summaries compare by content. */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, entry: unknown) =>
    entry && typeof entry === "object" && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry as Record<string, unknown>).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)))
      : entry,
  );

/** At most this many problems are quoted in one verdict. */
const quoted = 3;
const listed = (problems: readonly string[]): string =>
  `${problems.slice(0, quoted).join("; ")}${problems.length > quoted ? ` (and ${problems.length - quoted} more)` : ""}`;

/**
 * `search_model`: one page of a generated search against the model of the server's own data. The page holds only
 * conversations the model finds for its filters, each summary as the walk read it, no id twice; and its envelope
 * is the model's: `totalItemCount` the number the model finds, `totalPageCount`, `fromItemInclusive`,
 * `toItemExclusive`, `hasMore` and the number of items as that count and the page's own `pageSize` and `pageIndex`
 * make them (an empty result may count no page or one empty page). Which conversations a page holds is not
 * compared: the order is an open point.
 */
export const modelAgreement =
  (model: SearchModel): ExchangeCheck =>
  (exchange, { pageBase }) => {
    const page = pageOf(exchange);
    if (!page)
      return notJudged(
        exchange.status === 200
          ? "the 200 body is not a page of conversations"
          : `the search was answered ${exchange.status}: the seed shows no search status but success, so the model is not compared`,
      );
    return model.judged(
      exchange.case.query,
      (answer) => pageAgreement(model, page, pageBase, answer),
      (verdict) => typeof verdict !== "string",
    );
  };

/** One page against the model's answer for its search. */
function pageAgreement(model: SearchModel, page: ConversationPage, pageBase: number, answer: ModelAnswer): Verdict {
  if ("notModelled" in answer) return notJudged(answer.notModelled);
  const count = answer.ids.size;
  const problems: string[] = [];
  const expect = (what: string, expected: unknown, received: unknown): void => {
    if (expected !== received) problems.push(`${what}: the model says ${shown(expected)}, the server ${shown(received)}`);
  };
  expect("totalItemCount", count, page.totalItemCount);
  if (page.pageSize > 0 && !(count === 0 && page.totalPageCount === 1)) expect("totalPageCount", Math.ceil(count / page.pageSize), page.totalPageCount);
  const position = page.pageIndex - pageBase;
  if (position >= 0 && page.pageSize > 0) {
    const from = Math.min(position * page.pageSize, count);
    const length = Math.max(0, Math.min(page.pageSize, count - position * page.pageSize));
    expect("items.length", length, page.items.length);
    if (length > 0) {
      expect("fromItemInclusive", from, page.fromItemInclusive);
      expect("toItemExclusive", from + length, page.toItemExclusive);
    }
    expect("hasMore", (position + 1) * page.pageSize < count, page.hasMore);
  }
  const seen = new Set<string>();
  for (const item of page.items) {
    if (seen.has(item.id)) problems.push(`item ${shown(item.id)} twice on the page`);
    seen.add(item.id);
    const own = model.summaries.get(item.id);
    if (!own) problems.push(`item ${shown(item.id)} is none of the conversations the walk read`);
    else if (!answer.ids.has(item.id)) problems.push(`item ${shown(item.id)} does not match the filters by its own summary`);
    else if (canonical(own) !== canonical(item)) problems.push(`item ${shown(item.id)} differs from its summary on the walk`);
  }
  return problems.length === 0 ? undefined : `expected the answer the server's own data gives; ${listed(problems)}`;
}

/**
 * `search_model` over every page of one generated search, read in order: together they hold exactly the
 * conversations the model finds (none missing at a page boundary, none twice across pages).
 */
export function modelWalkAgreement(model: SearchModel, walked: readonly Exchange[]): Verdict {
  const pages = walked.map(pageOf);
  const first = walked[0];
  if (!first || !pages.every((page) => page !== undefined)) return notJudged("a page of the walk was not a 200 page");
  return model.judged(
    first.case.query,
    (answer) => walkAgreement(answer, pages as ConversationPage[]),
    (verdict) => typeof verdict !== "string",
  );
}

/** The pages of one search, read in order, against the model's answer for it. */
function walkAgreement(answer: ModelAnswer, pages: readonly ConversationPage[]): Verdict {
  if ("notModelled" in answer) return notJudged(answer.notModelled);
  const found = pages.flatMap((page) => page.items.map((item) => item.id));
  const missing = [...answer.ids].filter((id) => !found.includes(id));
  const twice = found.filter((id, index) => found.indexOf(id) !== index);
  const problems = [
    ...(missing.length > 0 ? [`${missing.length} conversations the model finds are on no page (first ${shown(missing[0])})`] : []),
    ...(twice.length > 0 ? [`${twice.length} conversations on two pages (first ${shown(twice[0])})`] : []),
  ];
  return problems.length === 0
    ? undefined
    : `expected the pages of the search to hold exactly the ${answer.ids.size} conversations the model finds; ${problems.join("; ")}`;
}

/** The `search-model` probe family. */
export const searchModelFamily = {
  name: "search-model",
  probes:
    "Generated searches over every filter and combination, periods anywhere around the data, page sizes up to the default and pages up to one past the last, each answer compared with a model of the server's own data (its unfiltered walk): items, counts and every envelope field; a search of a few pages read whole as one set.",
  rules: [
    "page-items",
    "page-has-more",
    "page-total-item-count",
    "page-total-page-count",
    "page-from-item",
    "page-to-item",
    ...dateFilterRules,
    "search-status",
    "search-channel-id",
    "search-page-size",
    "search-page-index",
  ],
} as const satisfies ProbeFamily;

/** The catalog's entry of `search_model`. */
export const searchModelEntry = {
  name: "search_model",
  description:
    "Generated searches over every filter, combination, period, page size and page agree with a model of the server's own data (its unfiltered walk): items, counts and every envelope field; order is not compared.",
  rule: "Seed, Search: the parameters filter the conversations (status, channelId, the periods of the start and of the last message); the page envelope counts the matching conversations (totalItemCount) and pages them (pageSize, pageIndex, fromItemInclusive, toItemExclusive, totalPageCount, hasMore); ordering of items: not shown.",
  phases: ["searchConversations: generated searches against the model of the server's data"],
  families: [searchModelFamily],
} as const satisfies CatalogEntry;
