import { afterEach, expect, test } from "vitest";
import { createBotConversationClient, UnexpectedResponseError } from "../src/index.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const page = {
  items: [{ id: "a" }],
  hasMore: false,
  pageIndex: 0,
  pageSize: 20,
  totalItemCount: 1,
  totalPageCount: 1,
  fromItemInclusive: 0,
  toItemExclusive: 1,
};

test.each([
  ["null", null, "expected an object; got null"],
  ["an array", [], "expected an object; got []"],
  ["items a string", { ...page, items: "abc" }, 'items: expected an array; got "abc"'],
  ["items an object", { ...page, items: {} }, "items: expected an array; got {}"],
  ["an item that is not an object", { ...page, items: [{ id: "a" }, 7] }, "items[1]: expected an object; got 7"],
  ["hasMore missing", { ...page, hasMore: undefined }, "hasMore: expected a boolean; got undefined"],
  ["hasMore a string", { ...page, hasMore: "false" }, 'hasMore: expected a boolean; got "false"'],
  ["pageIndex a string", { ...page, pageIndex: "1" }, 'pageIndex: expected a whole number; got "1"'],
  ["pageIndex negative", { ...page, pageIndex: -1 }, "pageIndex: expected a whole number; got -1"],
  ["pageSize a fraction", { ...page, pageSize: 1.5 }, "pageSize: expected a whole number; got 1.5"],
  ["totalItemCount missing", { ...page, totalItemCount: undefined }, "totalItemCount: expected a whole number; got undefined"],
  ["toItemExclusive null", { ...page, toItemExclusive: null }, "toItemExclusive: expected a whole number; got null"],
])("a search page with %s is an UnexpectedResponseError naming the field", async (_label, body, problem) => {
  server = await startServer((_request, response) => sendJson(response, 200, body));
  const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
  const error = await client.searchConversations().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UnexpectedResponseError);
  expect((error as Error).message).toBe(`GET /api/v2/channels/conversations answered 200 but ${problem}`);
  expect((error as UnexpectedResponseError).body).toEqual(JSON.parse(JSON.stringify(body)));
});

test("a page of the envelope's shape resolves as sent", async () => {
  server = await startServer((_request, response) => sendJson(response, 200, page));
  const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
  await expect(client.searchConversations()).resolves.toEqual(page);
});
