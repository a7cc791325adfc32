import type { BotConversationClient } from "@bot-conversation/client";
import type { ConversationPage } from "@bot-conversation/types";
import { CancelledError, type InfiniteData, InfiniteQueryObserver, QueryClient } from "@tanstack/query-core";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  type ConversationPageParam,
  conversationsKey,
  searchConversationsInfiniteKey,
  searchConversationsInfiniteQueryOptions,
  searchConversationsKey,
  searchConversationsQueryOptions,
} from "../src/index.ts";
import { busiestBot, startTestSandbox, type TestSandbox } from "./support/sandbox.ts";

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Walks an infinite search to its end with `fetchNextPage`, as a scrolling list would; returns the pages. */
async function walk(client: BotConversationClient, queryClient: QueryClient, query: Parameters<typeof searchConversationsInfiniteQueryOptions>[1]) {
  const observer = new InfiniteQueryObserver(queryClient, searchConversationsInfiniteQueryOptions(client, query));
  const unsubscribe = observer.subscribe(() => {});
  try {
    await observer.refetch();
    let result = observer.getCurrentResult();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    expect(result.status).toBe("success");
    // Asked again at the end, it sends nothing.
    return { pages: result.data!.pages, last: await observer.fetchNextPage() };
  } finally {
    unsubscribe();
  }
}

describe("searchConversationsQueryOptions", () => {
  it("fetches the page the client fetches, under the key of its bot and filters", async () => {
    sandbox = await startTestSandbox();
    const queryClient = new QueryClient();
    const query = { agentStageId: (await busiestBot(sandbox)).agentStageId, status: "Closed", pageSize: 5 } as const;
    const options = searchConversationsQueryOptions(sandbox.client, query);
    expect(options.queryKey).toEqual(["bot-conversation", "conversations", query.agentStageId, "page", query]);
    const page = await queryClient.fetchQuery(options);
    expect(page).toEqual(await sandbox.client.searchConversations(query));
    expect(page.items.map((conversation) => conversation.status)).toEqual(page.items.map(() => "Closed"));
    // The key is typed with its data: what the cache holds is a page.
    const cached = queryClient.getQueryData(searchConversationsKey(query));
    expectTypeOf(cached).toEqualTypeOf<ConversationPage | undefined>();
    expect(cached).toEqual(page);
  });
});

describe("searchConversationsInfiniteQueryOptions", () => {
  it.each([0, 1] as const)("walks every page of a bot to the end, with no duplicate and no gap, and stops (pageIndex from %i)", async (pageBase) => {
    sandbox = await startTestSandbox({ pageBase });
    const bot = await busiestBot(sandbox);
    expect(bot.conversations).toBeGreaterThan(7 * 3);
    const queryClient = new QueryClient();
    const { pages, last } = await walk(sandbox.client, queryClient, { agentStageId: bot.agentStageId, pageSize: 7 });
    const ids = pages.flatMap((page) => page.items.map((conversation) => conversation.id));
    expect(ids.length).toBe(bot.conversations);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.map((page) => page.pageIndex)).toEqual(Array.from({ length: Math.ceil(bot.conversations / 7) }, (_, index) => index + pageBase));
    expect(pages.at(-1)?.hasMore).toBe(false);
    expect(last.hasNextPage).toBe(false);
    // One request a page: the first without pageIndex, each next with the page after the last one returned; none after the end.
    expect(sandbox.requests).toEqual(
      pages.map(
        (_, index) => `GET /api/v2/channels/conversations?agentStageId=${bot.agentStageId}&pageSize=7${index === 0 ? "" : `&pageIndex=${index + pageBase}`}`,
      ),
    );
    const cached = queryClient.getQueryData(searchConversationsInfiniteKey({ agentStageId: bot.agentStageId, pageSize: 7 }));
    expectTypeOf(cached).toEqualTypeOf<InfiniteData<ConversationPage, ConversationPageParam> | undefined>();
    expect(cached?.pageParams).toEqual([undefined, ...pages.slice(1).map((page) => page.pageIndex)]);
  });

  it("starts at the query's pageIndex when it gives one, and keeps filtering on every page", async () => {
    sandbox = await startTestSandbox();
    const { agentStageId } = await busiestBot(sandbox);
    const { pages } = await walk(sandbox.client, new QueryClient(), { agentStageId, status: "Active", pageSize: 4, pageIndex: 2 });
    expect(pages[0]?.pageIndex).toBe(2);
    expect(pages[0]?.fromItemInclusive).toBe(8);
    const total = pages[0]!.totalItemCount;
    expect(pages.flatMap((page) => page.items).length).toBe(total - 8);
    expect(new Set(pages.flatMap((page) => page.items.map((conversation) => conversation.status)))).toEqual(new Set(["Active"]));
  });
});

describe("cancelling", () => {
  it("cancelQueries on a bot's searches aborts the request in flight (the query's signal reaches the client's fetch)", async () => {
    sandbox = await startTestSandbox();
    const { agentStageId } = await busiestBot(sandbox);
    // The next search waits 10 s before answering: long enough to be cancelled first.
    await sandbox.control("POST", "faults", { operationId: "searchConversations", status: 200, delayMs: 10_000 });
    sandbox.requests.length = 0;
    const queryClient = new QueryClient();
    const fetching = queryClient.fetchInfiniteQuery(searchConversationsInfiniteQueryOptions(sandbox.client, { agentStageId }));
    await vi.waitUntil(() => sandbox!.requests.length === 1);
    await queryClient.cancelQueries({ queryKey: conversationsKey(agentStageId) });
    await expect(fetching).rejects.toBeInstanceOf(CancelledError);
    expect(sandbox.signals.map((signal) => signal.aborted)).toEqual([true]);
  });
});
