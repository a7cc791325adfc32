import type { ConversationPage, ConversationSummary, SearchConversationsQuery } from "@bot-conversation/types";
import { PaginationError } from "./errors.js";
import { describeValue } from "./internal/describe.js";
import type { RequestOptions } from "./client.js";

/** Options of `iterateConversationPages` and `iterateConversations`. */
export interface IterateOptions {
  /** Stops the iteration (and the request in flight) when it aborts. */
  readonly signal?: AbortSignal;
  /** Most pages to request; iteration ends quietly after that many. Default: no bound. */
  readonly maxPages?: number;
  /** Extra headers for each page's request, or a function of that page's query. */
  readonly headers?: Record<string, string> | ((query: SearchConversationsQuery) => Record<string, string>);
}

type Search = (query: SearchConversationsQuery, options: RequestOptions) => Promise<ConversationPage>;

/**
 * Yields every page of a search: the first request omits `pageIndex` unless the caller gave one, and
 * each next request asks for the returned `pageIndex + 1` while `hasMore` is true (the base of
 * `pageIndex` is not stated by the service). Requests only move forward, so a page index is never
 * requested twice: a page that does not advance ends the iteration with `PaginationError`.
 */
export async function* iterateConversationPages(
  search: Search,
  query: SearchConversationsQuery = {},
  { signal, maxPages = Infinity, headers }: IterateOptions = {},
): AsyncGenerator<ConversationPage, void, undefined> {
  let pageQuery = query;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await search(pageQuery, { signal, headers: typeof headers === "function" ? headers(pageQuery) : headers });
    yield page;
    if (!page.hasMore) return;
    const next = page.pageIndex + 1;
    // Requests only move forward, so no page index is requested twice.
    if (!Number.isInteger(next) || next <= (pageQuery.pageIndex ?? 0)) {
      throw new PaginationError(`pageIndex ${describeValue(page.pageIndex)} does not advance past the page asked for`);
    }
    pageQuery = { ...query, pageIndex: next };
  }
}

/** Yields every conversation of a search, across pages (see `iterateConversationPages`). */
export async function* iterateConversations(
  search: Search,
  query?: SearchConversationsQuery,
  options?: IterateOptions,
): AsyncGenerator<ConversationSummary, void, undefined> {
  // A plain loop, not `yield*`: delegating to an array from an async generator costs about twice as much per item.
  for await (const page of iterateConversationPages(search, query, options)) for (const conversation of page.items) yield conversation;
}
