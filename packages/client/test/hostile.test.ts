import { type HostileServer, startHostileServer } from "@bot-conversation/test-support/hostile-server";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createBotConversationClient, PaginationError, ResponseTooLargeError } from "../src/index.js";

// An endless body is read to its 16 MiB limit: seconds on an idle machine, more on a busy one; the
// time-out only guards against a read that never ends.
vi.setConfig({ testTimeout: heavyTestTimeoutMs });

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a hostile server: every read is bounded", () => {
  test("an endless body ends in ResponseTooLargeError naming the limit, after reading little more than it", async () => {
    server = await startHostileServer("endless-body");
    const client = createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123", maxResponseBytes: 1024 * 1024 });
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toBe("GET /api/v2/channels/conversations answered 200, its body over maxResponseBytes (1048576 bytes)");
    // The reader stopped: the server was held to what the socket buffers take past the limit, nowhere near its 2 GiB.
    expect(server.written()).toBeLessThan(64 * 1024 * 1024);
  });

  test("the default limit is 16 MiB, for every operation (a trigger list too)", async () => {
    server = await startHostileServer("endless-body");
    const client = createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123" });
    const error = await client.listExternalEventTriggers("bot").catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/answered 200, its body over maxResponseBytes \(16777216 bytes\)/);
  });

  test("maxResponseBytes is checked when the client is created", () => {
    expect(() => createBotConversationClient({ baseUrl: "http://127.0.0.1:9", token: "t", maxResponseBytes: 0 })).toThrow(
      /^maxResponseBytes: expected a whole number from 1 to 1099511627776; got 0$/,
    );
  });

  test.each([
    [3, "totalItemCount 3 passed: 6 items read", ["c-0-0", "c-0-1", "c-0-2"]],
    [1, "totalPageCount 2 passed: hasMore after 2 pages", ["c-0-0"]],
  ])("paging whose hasMore never ends (pages of %i) stops with PaginationError once past what the envelope announced", async (pageSize, message, yielded) => {
    server = await startHostileServer("endless-paging");
    const client = createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123" });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const conversation of client.iterateConversations({ pageSize })) seen.push(conversation.id);
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toBe(message);
    // The page that broke the envelope was not yielded, and no request followed it.
    expect(seen).toEqual(yielded);
    expect(server.requests).toHaveLength(2);
  });
});
