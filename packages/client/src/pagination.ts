import type { ConversationPage, ConversationSummary, SearchConversationsQuery } from "@bot-conversation/types";
import { PaginationError } from "./errors.js";
import type { RequestOptions } from "./internal/call-options.js";
import { mistake } from "./internal/describe.js";
import { isCount } from "./internal/page.js";

/** Options of `iterateConversationPages` and `iterateConversations`. */
export interface IterateOptions {
  /** Stops the iteration (and the request in flight) when it aborts. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called with each page's response (status, headers, `x-request-id`; its body already read), the page's
   * JSON text as read (within `maxResponseBytes`) and the page it was checked into, the very object then
   * yielded: a caller that writes pages out (the CLI's NDJSON export) can write the text it read, not serialise the page again.
   */
  readonly onResponse?: ((response: Response, text: string, page: ConversationPage) => void) | undefined;
  /** Most pages to request, a whole number (0 or more); iteration ends quietly after that many. Default: no bound. */
  readonly maxPages?: number;
  /** Extra headers for each page's request, or a function of that page's query. */
  readonly headers?: Record<string, string> | ((query: SearchConversationsQuery) => Record<string, string>);
}

type Search = (query: SearchConversationsQuery, options: RequestOptions) => Promise<ConversationPage>;

/**
 * Yields every page of a search: the first request omits `pageIndex` unless the caller gave one, and
 * each next request asks for the returned `pageIndex + 1` while `hasMore` is true (the base of
 * `pageIndex` is not stated by the service). A page is yielded only when it is the one asked for: a
 * server answering with the same, an earlier or a later `pageIndex` ends the iteration with
 * `PaginationError` before anything of that page reaches the caller, so no page is read twice or skipped.
 * Paging always ends: a page that takes the items read past its `totalItemCount`, or that says
 * `hasMore` once as many pages as its `totalPageCount` have been read, ends the iteration with
 * `PaginationError` too, before it is yielded.
 */
export async function* iterateConversationPages(
  search: Search,
  query: SearchConversationsQuery = {},
  options: IterateOptions = {},
): AsyncGenerator<ConversationPage, void, undefined> {
  // No bound by default (10^15 pages is none); a NaN or negative bound would end the iteration before its first request, silently.
  const { maxPages = 1e15, headers } = options;
  isCount(maxPages) || mistake("maxPages", "a whole number", maxPages, 1);
  let pageQuery = query;
  let items = 0;
  for (let pages = 1; pages <= maxPages; pages++) {
    // The search reads only its own options (signal, onResponse, headers) from these.
    // `onResponse` receives this search's page as its result (the type says so once, here).
    const page = await search(pageQuery, { ...(options as RequestOptions), headers: typeof headers === "function" ? headers(pageQuery) : headers });
    const asked = pageQuery.pageIndex;
    // A peer's paging must end: never more items or pages than its own envelope announces.
    const problem =
      asked !== undefined && page.pageIndex !== asked
        ? `pageIndex: asked for ${asked}; got ${page.pageIndex}`
        : (items += page.items.length) > page.totalItemCount
          ? `totalItemCount ${page.totalItemCount} passed: ${items} items read`
          : page.hasMore && pages >= page.totalPageCount && pages < maxPages && `totalPageCount ${page.totalPageCount} passed: hasMore after ${pages} pages`;
    if (problem) throw new PaginationError(problem);
    yield page;
    const next = nextPageIndex(page);
    if (next === undefined) return;
    pageQuery = { ...query, pageIndex: next };
  }
}

/**
 * The `pageIndex` of the page after this one, from the service's own envelope: the returned
 * `pageIndex + 1` while `hasMore` is true, else `undefined` (the last page). The one paging rule of the
 * client's pager, for any other pager (e.g. a TanStack infinite query's `getNextPageParam`).
 */
// The page check made pageIndex a whole number, so the next request moves forward.
export const nextPageIndex = (page: ConversationPage): number | undefined => (page.hasMore ? page.pageIndex + 1 : undefined);

/** Yields every conversation of a search, across pages (see `iterateConversationPages`). */
export async function* iterateConversations(
  search: Search,
  query?: SearchConversationsQuery,
  options?: IterateOptions,
): AsyncGenerator<ConversationSummary, void, undefined> {
  // A plain loop, not `yield*`: delegating to an array from an async generator costs about twice as much per item.
  for await (const page of iterateConversationPages(search, query, options)) for (const conversation of page.items) yield conversation;
}
