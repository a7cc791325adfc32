import { afterEach, describe, expect, test } from "vitest";
import { createBotConversationClient } from "../src/index.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const page = { items: [], hasMore: false, pageIndex: 0, pageSize: 20, totalItemCount: 0, totalPageCount: 0, fromItemInclusive: 0, toItemExclusive: 0 };

describe("the logger option", () => {
  test("one redacted line per attempt: method, path, attempt, status, request id, duration", async () => {
    server = await startServer((request, response, index) =>
      index === 0
        ? sendJson(response, 503, {}, { "retry-after": "0", "x-request-id": `echo-${request.headers["x-token"]}` })
        : sendJson(response, 200, page, { "x-request-id": "r-2" }),
    );
    const lines: string[] = [];
    const client = createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123", logger: (line) => lines.push(line) });
    await client.searchConversations();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/api\/v2\/channels\/conversations attempt 1: 503, request id echo-\[redacted\] in \d+ ms$/);
    expect(lines[1]).toMatch(/^GET \/api\/v2\/channels\/conversations attempt 2: 200, request id r-2 in \d+ ms$/);
  });

  test("a response without X-Request-Id says so, never `request id null`", async () => {
    server = await startServer((_request, response) => sendJson(response, 200, page));
    const lines: string[] = [];
    await createBotConversationClient({ baseUrl: server.url, token: "t", logger: (line) => lines.push(line) }).searchConversations();
    expect(lines).toEqual([expect.stringMatching(/^GET \/api\/v2\/channels\/conversations attempt 1: 200, no request id in \d+ ms$/)]);
  });

  test("a failed attempt is logged too", async () => {
    server = await startServer(() => {});
    const url = server.url;
    await server.close();
    server = undefined;
    const lines: string[] = [];
    const client = createBotConversationClient({ baseUrl: url, token: "t", logger: (line) => lines.push(line) });
    await client.fireExternalEvent({ conversationId: "c", externalEventId: "e" }).catch(() => undefined);
    expect(lines).toEqual([expect.stringMatching(/^POST \/api\/v1\/runtime\/simple\/external\/events attempt 1: failed in \d+ ms$/)]);
  });
});

describe("the response of a successful call, without client.raw", () => {
  test("onResponse gets the status, headers and request id before the call resolves", async () => {
    server = await startServer((_request, response) => sendJson(response, 200, page, { "x-request-id": "req-7", "x-rate-limit-remaining": "99" }));
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    const seen: unknown[] = [];
    const result = await client.searchConversations(
      {},
      { onResponse: (response) => seen.push([response.status, response.headers.get("x-request-id"), response.headers.get("x-rate-limit-remaining")]) },
    );
    expect(result).toEqual(page);
    expect(seen).toEqual([[200, "req-7", "99"]]);
  });

  test("for a fire, and for each page of an iteration", async () => {
    server = await startServer((request, response) =>
      request.method === "POST" ? response.writeHead(200, { "x-request-id": "fire-1" }).end() : sendJson(response, 200, page, { "x-request-id": "page-1" }),
    );
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    const ids: (string | null)[] = [];
    await client.fireExternalEvent({ conversationId: "c", externalEventId: "e" }, { onResponse: (response) => ids.push(response.headers.get("x-request-id")) });
    for await (const _ of client.iterateConversationPages({}, { onResponse: (response) => ids.push(response.headers.get("x-request-id")) })) void _;
    expect(ids).toEqual(["fire-1", "page-1"]);
  });

  test("onResponse also gets the body's text as read and the checked result: for a page, the very object the pager yields", async () => {
    // Laid out as no JSON.stringify would: the text handed over is the one read, not the page serialised again.
    const text = `{ "items": [ {"id": "c-1"} ], "hasMore": false, "pageIndex": 0, "pageSize": 1, "totalItemCount": 1, "totalPageCount": 1, "fromItemInclusive": 0, "toItemExclusive": 1 }`;
    server = await startServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end(text));
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    const texts = new Map<object, string>();
    const yielded: object[] = [];
    for await (const each of client.iterateConversationPages({}, { onResponse: (_response, body, checked) => texts.set(checked, body) })) yielded.push(each);
    expect(yielded).toHaveLength(1);
    expect(texts.get(yielded[0]!)).toBe(text);
  });

  test("a failed call never calls onResponse", async () => {
    server = await startServer((_request, response) => sendJson(response, 404, { message: "no" }));
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    let called = false;
    await client.listExternalEventTriggers("bot", { onResponse: () => (called = true) }).catch(() => undefined);
    expect(called).toBe(false);
  });
});
