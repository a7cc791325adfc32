import { afterEach, describe, expect, test } from "vitest";
import { AbortError, createBotConversationClient, nextPageIndex, PaginationError, UnexpectedResponseError } from "../src/index.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A full page envelope: `index` is the pageIndex it reports, `ids` its conversations (each a minimal object). */
const pageOf = (index: number, ids: string[], hasMore: boolean) => ({
  items: ids.map((id) => ({ id })),
  hasMore,
  pageIndex: index,
  pageSize: 2,
  totalItemCount: 6,
  totalPageCount: 3,
  fromItemInclusive: index * 2,
  toItemExclusive: index * 2 + ids.length,
});

/**
 * A node:http server answering the search: `answer` gets the pageIndex asked for (undefined when none)
 * and the request number, and returns the page to send.
 */
async function pagesFrom(answer: (asked: number | undefined, request: number) => unknown) {
  server = await startServer((request, response, index) => {
    const asked = new URL(request.url, "http://127.0.0.1").searchParams.get("pageIndex");
    sendJson(response, 200, answer(asked === null ? undefined : Number(asked), index));
  });
  const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
  const askedFor = () => server!.requests.map((request) => new URL(request.url, "http://127.0.0.1").searchParams.get("pageIndex"));
  return { client, askedFor };
}

/** Reads every conversation id, and the error that ended the iteration, if any. */
async function readAll(conversations: AsyncIterable<{ id: string }>) {
  const ids: string[] = [];
  try {
    for await (const conversation of conversations) ids.push(conversation.id);
  } catch (error) {
    return { ids, error };
  }
  return { ids, error: undefined };
}

const three = [pageOf(0, ["a", "b"], true), pageOf(1, ["c", "d"], true), pageOf(2, ["e"], false)];

describe("iterateConversations", () => {
  test("omits pageIndex first, then asks for the returned pageIndex + 1 while hasMore", async () => {
    const { client, askedFor } = await pagesFrom((asked) => three[asked ?? 0]);
    const { ids, error } = await readAll(client.iterateConversations({ agentStageId: "bot" }));
    expect(error).toBeUndefined();
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(askedFor()).toEqual([null, "1", "2"]);
    expect(server!.requests.every((request) => request.url.includes("agentStageId=bot"))).toBe(true);
  });

  test("starts from the caller's pageIndex when given", async () => {
    const { client, askedFor } = await pagesFrom((asked) => three[asked ?? 0]);
    expect((await readAll(client.iterateConversations({ pageIndex: 1 }))).ids).toEqual(["c", "d", "e"]);
    expect(askedFor()).toEqual(["1", "2"]);
  });

  test.each([Number.NaN, -1, 1.5, Infinity, "3"])("maxPages %s is a TypeError naming it, before any request", async (maxPages) => {
    const { client } = await pagesFrom((asked) => pageOf(asked ?? 0, ["x"], true));
    const iterator = client.iterateConversations({}, { maxPages: maxPages as number });
    await expect(iterator.next()).rejects.toThrow(
      new TypeError(`maxPages: expected a whole number; got ${typeof maxPages === "string" ? JSON.stringify(maxPages) : String(maxPages)}`),
    );
    expect(server!.requests).toHaveLength(0);
  });

  test("maxPages bounds the number of requests", async () => {
    const { client } = await pagesFrom((asked) => pageOf(asked ?? 0, [`x${asked ?? 0}`], true));
    const pages = [];
    for await (const page of client.iterateConversationPages({}, { maxPages: 3 })) pages.push(page.pageIndex);
    expect(pages).toEqual([0, 1, 2]);
    expect(server!.requests).toHaveLength(3);
  });
});

describe("nothing from a page that is not the one asked for reaches the caller", () => {
  test.each([
    ["the same pageIndex again", () => pageOf(0, ["dup-1", "dup-2"], true), "pageIndex: asked for 1; got 0"],
    ["an earlier pageIndex", (asked?: number) => (asked === undefined ? pageOf(3, ["a"], true) : pageOf(1, ["back"], true)), "pageIndex: asked for 4; got 1"],
    [
      "a jump from page 1 to 7",
      (asked?: number) => (asked === undefined ? pageOf(1, ["a"], true) : pageOf(7, ["skipped-ahead"], true)),
      "pageIndex: asked for 2; got 7",
    ],
  ])("%s: PaginationError before the bad page is yielded, and no page is asked for twice", async (_label, answer, message) => {
    const { client, askedFor } = await pagesFrom(answer);
    const { ids, error } = await readAll(client.iterateConversations());
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(message);
    expect(ids).toHaveLength(ids[0] === "dup-1" ? 2 : 1);
    expect(ids).not.toContain("back");
    expect(ids).not.toContain("skipped-ahead");
    expect(new Set(askedFor()).size).toBe(askedFor().length);
  });

  test("a caller's pageIndex the server does not honour is not yielded either", async () => {
    const { client } = await pagesFrom(() => pageOf(0, ["first"], false));
    const { ids, error } = await readAll(client.iterateConversations({ pageIndex: 5 }));
    expect(ids).toEqual([]);
    expect((error as Error).message).toBe("pageIndex: asked for 5; got 0");
  });

  test("a page with a bad shape is an UnexpectedResponseError, and the earlier pages' items are all that was yielded", async () => {
    const { client } = await pagesFrom((asked) => (asked === undefined ? pageOf(0, ["a"], true) : { ...pageOf(1, ["b"], true), items: "abc" }));
    const { ids, error } = await readAll(client.iterateConversations());
    expect(ids).toEqual(["a"]);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain('items: expected an array; got "abc"');
  });
});

test("the caller's signal reaches every page's request, so an abort between pages stops before the next request", async () => {
  const { client } = await pagesFrom((asked) => pageOf(asked ?? 0, ["x"], true));
  const controller = new AbortController();
  const error = await (async () => {
    for await (const _ of client.iterateConversationPages({}, { signal: controller.signal })) controller.abort();
  })().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AbortError);
  expect(server!.requests).toHaveLength(1);
});

describe("nextPageIndex", () => {
  const envelope = { items: [], pageSize: 2, totalItemCount: 6, totalPageCount: 3, fromItemInclusive: 0, toItemExclusive: 2 };
  test.each([
    [{ ...envelope, hasMore: true, pageIndex: 0 }, 1],
    [{ ...envelope, hasMore: true, pageIndex: 1 }, 2],
    [{ ...envelope, hasMore: false, pageIndex: 2 }, undefined],
  ])("after %j is %j: the returned pageIndex + 1 while hasMore", (page, next) => {
    expect(nextPageIndex(page)).toBe(next);
  });
});
