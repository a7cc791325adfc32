import { type BotConversationClient, nextPageIndex, PaginationError } from "@bot-conversation/client";
import type { ConversationPage, SearchConversationsQuery } from "@bot-conversation/types";
import type { DataTag, InfiniteData, InfiniteQueryObserverOptions, OmitKeyof, QueryFunction, QueryObserverOptions } from "@tanstack/query-core";
import {
  type BotConversationQueryError,
  type ConversationPageParam,
  type SearchConversationsInfiniteKey,
  type SearchConversationsKey,
  searchConversationsInfiniteKey,
  searchConversationsKey,
} from "./keys.js";

/** Options of one page of a search, for `useQuery`, `queryClient.fetchQuery` and every other adapter. */
export type SearchConversationsQueryOptions = OmitKeyof<
  QueryObserverOptions<ConversationPage, BotConversationQueryError, ConversationPage, ConversationPage, SearchConversationsKey>,
  "queryKey" | "queryFn"
> & {
  /** The search's key (see `searchConversationsKey`). */
  queryKey: DataTag<SearchConversationsKey, ConversationPage, BotConversationQueryError>;
  /** Fetches the page; always a function (never `skipToken`), so the options also fit `useSuspenseQuery`. */
  queryFn: QueryFunction<ConversationPage, SearchConversationsKey>;
};

/** Options of an infinite search, for `useInfiniteQuery`, `queryClient.fetchInfiniteQuery` and every other adapter. */
export type SearchConversationsInfiniteQueryOptions = OmitKeyof<
  InfiniteQueryObserverOptions<
    ConversationPage,
    BotConversationQueryError,
    InfiniteData<ConversationPage, ConversationPageParam>,
    SearchConversationsInfiniteKey,
    ConversationPageParam
  >,
  "queryKey" | "queryFn"
> & {
  /** The search's key (see `searchConversationsInfiniteKey`). */
  queryKey: DataTag<SearchConversationsInfiniteKey, InfiniteData<ConversationPage, ConversationPageParam>, BotConversationQueryError>;
  /** Fetches one page; always a function (never `skipToken`), so the options also fit `useSuspenseInfiniteQuery`. */
  queryFn: QueryFunction<ConversationPage, SearchConversationsInfiniteKey, ConversationPageParam>;
};

/**
 * One page of a search (`client.searchConversations`). `retry: false`: the client already retries what
 * is worth retrying (connection errors, 408, 429, 502-504, honouring `Retry-After`); a second layer would
 * multiply requests and retry a 404. Spread and override it (`{ ...options, retry: 3 }`) to change that.
 */
export function searchConversationsQueryOptions(client: BotConversationClient, query: SearchConversationsQuery = {}): SearchConversationsQueryOptions {
  return {
    queryKey: searchConversationsKey(query),
    queryFn: ({ signal }) => client.searchConversations(query, { signal }),
    retry: false,
  };
}

/**
 * Every page of a search, one page per `fetchNextPage`. Each page is read by the client's own pager
 * (`client.iterateConversationPages`, one page), so the first request omits `pageIndex` unless
 * `query.pageIndex` gives a start, and a page other than the one asked for is a `PaginationError`
 * rather than a duplicate or a gap. The next page comes from the service's envelope by the client's
 * `nextPageIndex`: the returned `pageIndex + 1` while `hasMore` is true (the base of `pageIndex` is
 * never assumed). Paging always ends, across `fetchNextPage` calls too: a next page past the
 * `totalPageCount` the last page announced (counted from the first page of the query's data) is a
 * `PaginationError` before any request, so a list that loads while its end is in view cannot loop on
 * a server whose `hasMore` never ends. `retry: false`, as for `searchConversationsQueryOptions`.
 */
export function searchConversationsInfiniteQueryOptions(
  client: BotConversationClient,
  query: SearchConversationsQuery = {},
): SearchConversationsInfiniteQueryOptions {
  const { pageIndex, ...filters } = query;
  return {
    queryKey: searchConversationsInfiniteKey(query),
    queryFn: async ({ pageParam, signal, client: queryClient, queryKey }) => {
      const known = queryClient.getQueryData<InfiniteData<ConversationPage, ConversationPageParam>>(queryKey)?.pages;
      const [first, last] = [known?.[0], known?.at(-1)];
      // A next page (not the first, nor a refetch of the first): its place in the walk, from the first page.
      if (first && last && pageParam !== undefined && pageParam !== first.pageIndex) {
        const position = pageParam - first.pageIndex + 1;
        if (position > last.totalPageCount) throw new PaginationError(`totalPageCount ${last.totalPageCount} passed: page ${position} asked for`);
      }
      const pages = client.iterateConversationPages(pageParam === undefined ? filters : { ...filters, pageIndex: pageParam }, { signal, maxPages: 1 });
      for await (const page of pages) return page;
      // The pager yields the first page or throws; it never ends empty with one page allowed.
      throw new Error("the client's pager ended without a page");
    },
    initialPageParam: pageIndex,
    // The client's own rule, the one its pager follows.
    getNextPageParam: nextPageIndex,
    retry: false,
  };
}
