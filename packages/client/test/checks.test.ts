import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type BotConversationClientOptions, createBotConversationClient } from "../src/index.js";
import { everyForm } from "./support/forms.js";
import { startServer, type TestServer } from "./support/server.js";

/** One real server for the file: every case asserts that nothing reached it. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer((_request, response) => response.writeHead(200).end());
});
afterAll(() => server.close());

const client = () => createBotConversationClient({ baseUrl: server.url, token: "t" });

describe("options are checked when the client is created: a TypeError names the option and what was expected", () => {
  test.each([
    ["maxRetries NaN", { maxRetries: Number.NaN }, "maxRetries: expected a whole number from 0 to 100; got NaN"],
    ["maxRetries Infinity", { maxRetries: Infinity }, "maxRetries: expected a whole number from 0 to 100; got Infinity"],
    ["maxRetries -1", { maxRetries: -1 }, "maxRetries: expected a whole number from 0 to 100; got -1"],
    ["maxRetries 1.5", { maxRetries: 1.5 }, "maxRetries: expected a whole number from 0 to 100; got 1.5"],
    ["timeoutMs Infinity", { timeoutMs: Infinity }, "timeoutMs: expected a whole number from 1 to 2147483647; got Infinity"],
    ["timeoutMs 2^31", { timeoutMs: 2 ** 31 }, "timeoutMs: expected a whole number from 1 to 2147483647; got 2147483648"],
    ["timeoutMs NaN", { timeoutMs: Number.NaN }, "timeoutMs: expected a whole number from 1 to 2147483647; got NaN"],
    ["timeoutMs 0", { timeoutMs: 0 }, "timeoutMs: expected a whole number from 1 to 2147483647; got 0"],
    ["a non-string token", { token: 12345 }, "token: expected a non-empty string of printable ASCII; got number"],
    ["an empty token", { token: "" }, "token: expected a non-empty string of printable ASCII; got string"],
    ["a fetch that is not a function", { fetch: "fetch" }, "fetch: expected a function; got string"],
    ["a logger that is not a function", { logger: console }, "logger: expected a function; got object"],
    ["a baseUrl without a scheme", { baseUrl: "127.0.0.1:4010" }, "baseUrl: expected an http(s) URL, no credentials, query or fragment; got string"],
    ["a baseUrl of another scheme", { baseUrl: "ftp://127.0.0.1" }, "baseUrl: expected an http(s) URL, no credentials, query or fragment; got string"],
    ["a baseUrl with a query", { baseUrl: "http://127.0.0.1:4010/?a=1" }, "baseUrl: expected an http(s) URL, no credentials, query or fragment; got string"],
  ] as [string, Partial<Record<keyof BotConversationClientOptions, unknown>>, string][])("%s", (_label, options, message) => {
    expect(() => createBotConversationClient({ baseUrl: "http://127.0.0.1:4010", token: "t", ...options } as BotConversationClientOptions)).toThrow(
      new TypeError(message),
    );
  });

  test("a baseUrl with user:password is refused without copying the password", () => {
    const error = (() => {
      try {
        createBotConversationClient({ baseUrl: "http://admin:hunter2@127.0.0.1:4010", token: "t" });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(TypeError);
    expect(everyForm(error)).not.toMatch(/hunter2|admin/);
  });

  test("the accepted range: timeoutMs 2^31 - 1 and maxRetries 0 and 100", () => {
    for (const options of [{ timeoutMs: 2 ** 31 - 1 }, { maxRetries: 0 }, { maxRetries: 100 }]) {
      expect(() => createBotConversationClient({ baseUrl: "https://example.test/base/", token: "t", ...options })).not.toThrow();
    }
  });
});

describe("caller mistakes in a call are TypeErrors naming the argument, and nothing is sent", () => {
  const cyclic: Record<string, unknown> = { orderNumber: "1" };
  cyclic["self"] = cyclic;
  test.each([
    [
      "a Date in the search",
      () => client().searchConversations({ agentStageId: "bot", startFromDate: new Date("2026-11-20") as unknown as string }),
      "query.startFromDate: expected a non-empty string or a whole number; got object",
    ],
    [
      "an empty agentStageId in the search",
      () => client().searchConversations({ agentStageId: "" }),
      'query.agentStageId: expected a non-empty string or a whole number; got ""',
    ],
    [
      "a pageSize that is not a whole number",
      () => client().searchConversations({ pageSize: Number.NaN }),
      "query.pageSize: expected a non-empty string or a whole number; got NaN",
    ],
    ["an empty agentStageId in the trigger list", () => client().listExternalEventTriggers(""), 'agentStageId: expected a non-empty string; got ""'],
    ["`..` as an agentStageId", () => client().listExternalEventTriggers(".."), 'agentStageId: expected an identifier; got ".."'],
    [
      "a fire with neither conversation identifier",
      () => client().fireExternalEvent({ externalEventId: "e" } as never),
      "request.externalConversationId: expected a non-empty string; got undefined",
    ],
    [
      "a fire with an empty conversationId",
      () => client().fireExternalEvent({ conversationId: "", externalEventId: "e" }),
      'request.conversationId: expected a non-empty string; got ""',
    ],
    [
      "a fire with an empty externalEventId",
      () => client().fireExternalEvent({ conversationId: "c", externalEventId: "" }),
      'request.externalEventId: expected a non-empty string; got ""',
    ],
    [
      "a fire with an empty externalConversationId",
      () => client().fireExternalEvent({ externalConversationId: " ", externalEventId: "e" }),
      'request.externalConversationId: expected a non-empty string; got " "',
    ],
    [
      "a bigint in the payload",
      () => client().fireExternalEvent({ conversationId: "c", externalEventId: "e", externalEventPayload: { orderTotal: 10n as never } }),
      "request: Do not know how to serialize a BigInt",
    ],
    [
      "a cyclic payload",
      () => client().fireExternalEvent({ conversationId: "c", externalEventId: "e", externalEventPayload: cyclic as never }),
      /^request: Converting circular structure to JSON/,
    ],
  ])("%s", async (_label, call, message) => {
    const before = server.requests.length;
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    if (typeof message === "string") expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
    expect(server.requests.length).toBe(before);
  });

  test("an agentStageId with a slash is encoded into one path segment", async () => {
    await client()
      .listExternalEventTriggers("a/b?c")
      .catch(() => undefined);
    expect(server.requests.at(-1)?.url).toBe("/api/v1/runtime/simple/external/events/a%2Fb%3Fc");
  });

  test("an ISO 8601 string in the search is sent as given", async () => {
    await client()
      .searchConversations({ startFromDate: "2026-11-20T00:00:00+03:00" })
      .catch(() => undefined);
    expect(new URL(server.requests.at(-1)!.url, server.url).searchParams.get("startFromDate")).toBe("2026-11-20T00:00:00+03:00");
  });
});
