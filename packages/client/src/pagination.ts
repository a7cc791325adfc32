import type { ConversationPage, ConversationSummary, SearchConversationsQuery } from "@bot-conversation/types";
import { AbortError, PaginationError } from "./errors.js";
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
 * `pageIndex` is not stated by the service). A page index is never requested twice.
 */
export async function* iterateConversationPages(
  search: Search,
  query: SearchConversationsQuery = {},
  { signal, maxPages = Infinity, headers }: IterateOptions = {},
): AsyncGenerator<ConversationPage, void, undefined> {
  // Every page index asked for: a next index already asked for means the server's pages do not advance.
  const requested = new Set<number | undefined>();
  let pageQuery = query;
  for (let pages = 0; pages < maxPages; pages++) {
    if (signal?.aborted) throw new AbortError("GET request aborted by the caller");
    requested.add(pageQuery.pageIndex);
    const page = await search(pageQuery, { signal, headers: typeof headers === "function" ? headers(pageQuery) : headers });
    yield page;
    if (!page.hasMore) return;
    const next = page.pageIndex + 1;
    if (!Number.isInteger(next) || next < 1 || requested.has(next)) {
      throw new PaginationError(`pageIndex ${JSON.stringify(page.pageIndex)} returned twice or not an index; stopping`);
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
  for await (const page of iterateConversationPages(search, query, options)) yield* page.items;
}
