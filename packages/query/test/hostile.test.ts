import { createBotConversationClient, PaginationError } from "@bot-conversation/client";
import { type HostileServer, startHostileServer } from "@bot-conversation/test-support/hostile-server";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { InfiniteQueryObserver, QueryClient } from "@tanstack/query-core";
import { afterEach, expect, it, vi } from "vitest";
import { searchConversationsInfiniteQueryOptions } from "../src/index.ts";

// Page after page from a real server: the time-out only guards against a loop that never ends.
vi.setConfig({ testTimeout: heavyTestTimeoutMs });

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it("a list that loads page after page while hasNextPage cannot loop on a server whose hasMore never ends: a PaginationError past the announced totalPageCount", async () => {
  // One conversation a page, hasMore always true, 3 conversations in 2 pages announced.
  server = await startHostileServer("endless-paging");
  const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
  const observer = new InfiniteQueryObserver(new QueryClient(), searchConversationsInfiniteQueryOptions(client, { pageSize: 1 }));
  const unsubscribe = observer.subscribe(() => {});
  try {
    await observer.refetch();
    let result = observer.getCurrentResult();
    // As a scrolling list does: the next page while there is one and none failed, at most 10 times here.
    for (let turn = 0; turn < 10 && result.hasNextPage && !result.isFetchNextPageError; turn++) result = await observer.fetchNextPage();
    expect(result.isFetchNextPageError).toBe(true);
    expect(result.error).toBeInstanceOf(PaginationError);
    expect(result.error?.message).toBe("totalPageCount 2 passed: page 3 asked for");
    expect(result.data?.pages.map((page) => page.pageIndex)).toEqual([0, 1]);
    // The third page was never asked for.
    expect(server.requests).toHaveLength(2);
  } finally {
    unsubscribe();
  }
});
