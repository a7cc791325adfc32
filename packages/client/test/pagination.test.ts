import type { ConversationPage, SearchConversationsQuery } from "@bot-conversation/types";
import { describe, expect, test } from "vitest";
import { AbortError, PaginationError } from "../src/errors.js";
import { iterateConversationPages, iterateConversations } from "../src/pagination.js";

/**
 * A search over fixed pages, keyed by the pageIndex returned. Like the client's search, it checks the
 * caller's signal before sending; records the signal of every call and every query sent.
 */
function fakeSearch(pages: Partial<ConversationPage>[], pick = (query: SearchConversationsQuery, call: number) => pages[call]) {
  const queries: SearchConversationsQuery[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  const search = async (query: SearchConversationsQuery, { signal }: { signal?: AbortSignal | undefined } = {}) => {
    signals.push(signal);
    if (signal?.aborted) throw new AbortError("GET request aborted by the caller");
    queries.push(query);
    const page = pick(query, queries.length - 1);
    return { items: [], hasMore: false, pageIndex: 0, ...page } as ConversationPage;
  };
  return { search, queries, signals };
}

const item = (id: string) => ({ id }) as ConversationPage["items"][number];

describe("iterateConversationPages", () => {
  test("omits pageIndex first, then asks for the returned pageIndex + 1 while hasMore", async () => {
    const { search, queries } = fakeSearch([
      { hasMore: true, pageIndex: 1, items: [item("a")] },
      { hasMore: true, pageIndex: 2, items: [item("b")] },
      { hasMore: false, pageIndex: 3, items: [item("c")] },
    ]);
    const ids = [];
    for await (const conversation of iterateConversations(search, { agentStageId: "bot" })) ids.push(conversation.id);
    expect(ids).toEqual(["a", "b", "c"]);
    expect(queries).toEqual([{ agentStageId: "bot" }, { agentStageId: "bot", pageIndex: 2 }, { agentStageId: "bot", pageIndex: 3 }]);
  });

  test("starts from the caller's pageIndex when given", async () => {
    const { search, queries } = fakeSearch([{ pageIndex: 4 }]);
    for await (const _ of iterateConversationPages(search, { pageIndex: 4 })) void _;
    expect(queries).toEqual([{ pageIndex: 4 }]);
  });

  test("a server returning the same pageIndex twice stops with a PaginationError, never asking twice", async () => {
    const { search, queries } = fakeSearch([], () => ({ hasMore: true, pageIndex: 0 }));
    const seen = [];
    const error = await (async () => {
      for await (const page of iterateConversationPages(search)) seen.push(page.pageIndex);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toContain("pageIndex 0 does not advance");
    expect(queries.map((query) => query.pageIndex)).toEqual([undefined, 1]);
  });

  test("a server going back to an earlier page stops with a PaginationError, never asking again", async () => {
    const { search, queries } = fakeSearch([{ hasMore: true, pageIndex: 4 }, { hasMore: true, pageIndex: 1 }]);
    const pages = iterateConversationPages(search, { pageIndex: 4 });
    await pages.next();
    await pages.next();
    await expect(pages.next()).rejects.toThrow("pageIndex 1 does not advance");
    expect(queries.map((query) => query.pageIndex)).toEqual([4, 5]);
  });

  test.each([-1, 1.5, undefined])("a hasMore page with pageIndex %j stops with a PaginationError", async (pageIndex) => {
    const { search, queries } = fakeSearch([], () => ({ hasMore: true, pageIndex: pageIndex as number }));
    const pages = iterateConversationPages(search);
    await pages.next();
    await expect(pages.next()).rejects.toBeInstanceOf(PaginationError);
    expect(queries).toHaveLength(1);
  });

  test("maxPages bounds the number of requests", async () => {
    const { search, queries } = fakeSearch([], (_query, call) => ({ hasMore: true, pageIndex: call }));
    const pages = [];
    for await (const page of iterateConversationPages(search, {}, { maxPages: 3 })) pages.push(page);
    expect(pages).toHaveLength(3);
    expect(queries).toHaveLength(3);
  });

  test("the caller's signal reaches every page's search, so an abort stops before the next request", async () => {
    const controller = new AbortController();
    const { search, queries, signals } = fakeSearch([], (_query, call) => ({ hasMore: true, pageIndex: call }));
    const error = await (async () => {
      for await (const _ of iterateConversationPages(search, {}, { signal: controller.signal })) controller.abort();
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(signals).toEqual([controller.signal, controller.signal]);
    expect(queries).toHaveLength(1);
  });
});
