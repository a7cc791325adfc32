import { inspect } from "node:util";
import type { ExternalEventTrigger } from "@bot-conversation/types";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  AbortError,
  ApiError,
  AuthenticationError,
  type BotConversationClientOptions,
  ConnectionError,
  createBotConversationClient,
  EventValidationError,
  NotFoundError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from "../src/index.js";
import { retryTiming } from "../src/internal/transport.js";
import { noteResponse } from "./support/arrival.js";
import { type Handler, sendJson, startServer, type TestServer } from "./support/server.js";

const trigger: ExternalEventTrigger = {
  externalEventId: "order-status-changed",
  externalEventName: "Order status changed",
  parameters: { orderTotal: { name: "Total", type: "Number" } },
};
const page = { items: [], hasMore: false, pageIndex: 0, pageSize: 20, totalItemCount: 0, totalPageCount: 0, fromItemInclusive: 0, toItemExclusive: 0 };
const fire = { conversationId: "c-1", externalEventId: "order-status-changed" } as const;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Starts a node:http server and a client pointed at it. */
async function setUp(handler: Handler, options: Partial<BotConversationClientOptions> = {}) {
  server = await startServer(handler);
  return { server, client: createBotConversationClient({ baseUrl: server.url, token: "secret-token-123", ...options }) };
}

describe("retries of GET requests", () => {
  test.each([408, 429, 502, 503, 504])("a GET answered %i is retried, and succeeds on the next attempt", async (status) => {
    const { client, server } = await setUp((_request, response, index) =>
      index === 0 ? sendJson(response, status, { message: "later" }, { "retry-after": "0" }) : sendJson(response, 200, page),
    );
    await expect(client.searchConversations()).resolves.toEqual(page);
    expect(server.requests).toHaveLength(2);
  });

  test("twice by default: the third failure is thrown", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 503, { message: "busy" }, { "retry-after": "0" }));
    await expect(client.searchConversations()).rejects.toMatchObject({ name: "ServerError", status: 503 });
    expect(server.requests).toHaveLength(3);
  });

  test("maxRetries: 0 turns retries off", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 429, {}, { "retry-after": "0" }), { maxRetries: 0 });
    await expect(client.searchConversations()).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  test("Retry-After in seconds is honoured: the wait asked for is the server's, not the backoff", async () => {
    const sleep = vi.spyOn(retryTiming, "sleep").mockResolvedValue(undefined);
    try {
      const { client, server } = await setUp((_request, response, index) =>
        index === 0 ? sendJson(response, 429, {}, { "retry-after": "1" }) : sendJson(response, 200, page),
      );
      await expect(client.searchConversations()).resolves.toEqual(page);
      expect(server.requests).toHaveLength(2);
      expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1_000]);
    } finally {
      sleep.mockRestore();
    }
  });

  test.each([
    ["-1", 500],
    ["0x3", 500],
    ["1e0", 500],
    ["1.5", 500],
    ["2", 2_000],
  ])("Retry-After %j: only whole seconds or an HTTP date are honoured, else the backoff applies (%i ms)", async (retryAfter, wait) => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const sleep = vi.spyOn(retryTiming, "sleep").mockResolvedValue(undefined);
    try {
      const { client } = await setUp((_request, response, index) =>
        index === 0 ? sendJson(response, 503, {}, { "retry-after": retryAfter }) : sendJson(response, 200, page),
      );
      await expect(client.searchConversations()).resolves.toEqual(page);
      expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([wait]);
    } finally {
      vi.restoreAllMocks();
    }
  });

  test.each([400, 401, 404, 500])("a GET answered %i is not retried", async (status) => {
    const { client, server } = await setUp((_request, response) => sendJson(response, status, { message: "no" }));
    await expect(client.listExternalEventTriggers("bot")).rejects.toMatchObject({ status });
    expect(server.requests).toHaveLength(1);
  });

  test("firing an event is never retried, even on 503", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 503, {}, { "retry-after": "0" }));
    await expect(client.fireExternalEvent(fire)).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  test("a refused connection is a ConnectionError after the retries", async () => {
    const { client, server } = await setUp(() => {}, { maxRetries: 1 });
    await server.close();
    await expect(client.searchConversations()).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe("timeouts and aborts", () => {
  // The servers below never answer (or never finish the body) rather than answering after a fixed
  // wait: on a loaded machine any fixed wait can run out before the client's own timer does.
  test("an attempt slower than timeoutMs is a TimeoutError", async () => {
    const { client } = await setUp(() => {}, { timeoutMs: 100 });
    await expect(client.fireExternalEvent(fire)).rejects.toBeInstanceOf(TimeoutError);
  });

  test("a body slower than timeoutMs is a TimeoutError too", async () => {
    // The attempt's timer runs on a fake clock, moved on only once the status line arrived, so the
    // time-out always falls in the body read, however slowly the response comes.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const noted = noteResponse();
      const { client } = await setUp(
        (_request, response) => {
          response.writeHead(200, { "content-type": "application/json" });
          response.write('{"items":');
        },
        { timeoutMs: 150, fetch: noted.fetch },
      );
      const error = client.searchConversations().catch((caught: unknown) => caught);
      expect(await noted.responded).toBe(200);
      await vi.advanceTimersByTimeAsync(150);
      expect(await error).toBeInstanceOf(TimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });

  test("the caller's AbortSignal aborts the request with an AbortError", async () => {
    const controller = new AbortController();
    // Aborted once the server holds the request, which it never answers.
    const { client, server } = await setUp(() => controller.abort());
    await expect(client.searchConversations({}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  test("a token function that never settles is ended by timeoutMs, and nothing is sent", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 200, page), {
      token: () => new Promise<string>(() => {}),
      timeoutMs: 100,
    });
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe("GET request timed out after 100 ms");
    expect(server.requests).toEqual([]);
  });

  test("a token function that never settles is ended by the caller's signal", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 200, page), { token: () => new Promise<string>(() => {}) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(client.fireExternalEvent(fire, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toEqual([]);
  });

  test("an abort between pages ends the iteration with an AbortError, and no further page is requested", async () => {
    const { client, server } = await setUp((_request, response, index) =>
      sendJson(response, 200, { ...page, hasMore: true, pageIndex: index, totalItemCount: 100, totalPageCount: 100 }),
    );
    const controller = new AbortController();
    const error = await (async () => {
      for await (const _ of client.iterateConversationPages({}, { signal: controller.signal })) controller.abort();
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  test("an abort during the wait before a retry is an AbortError, and stops retrying", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 503, {}, { "retry-after": "30" }));
    const controller = new AbortController();
    // Aborted once the wait has begun (the real wait, of the server's 30 s), not after a fixed delay,
    // which a loaded machine can spend before the first answer even arrives.
    const realSleep = retryTiming.sleep;
    const sleep = vi.spyOn(retryTiming, "sleep").mockImplementation((ms, signal) => {
      const waiting = realSleep(ms, signal);
      controller.abort();
      return waiting;
    });
    try {
      await expect(client.searchConversations({}, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
      expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([30_000]);
      expect(server.requests).toHaveLength(1);
    } finally {
      sleep.mockRestore();
    }
  });
});

describe("bodies", () => {
  test("a non-JSON error body is kept as raw text on the ApiError", async () => {
    const { client } = await setUp((_request, response) => response.writeHead(500, { "content-type": "text/html" }).end("<h1>Oops</h1>"));
    const error = await client.listExternalEventTriggers("bot").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ body: "<h1>Oops</h1>", details: "<h1>Oops</h1>", method: "GET" });
  });

  test("a 500 on firing carries the validation details", async () => {
    const details = { message: "Variable 'deliveryDate' expects a DateTime" };
    const { client } = await setUp((_request, response) => sendJson(response, 500, details, { "x-request-id": "req-42" }));
    const error = await client.fireExternalEvent(fire).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ details, requestId: "req-42", status: 500, method: "POST", path: "/api/v1/runtime/simple/external/events" });
    expect((error as ServerError).headers["x-request-id"]).toBe("req-42");
  });

  test.each([
    ["HTML", "<html>maintenance</html>"],
    ["truncated JSON", '{"items": ['],
    ["an empty body", ""],
  ])("a 2xx search with %s is an UnexpectedResponseError, not a SyntaxError", async (_label, text) => {
    const { client } = await setUp((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(text));
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain("expected a JSON body");
  });

  test("a 401 is an AuthenticationError and a 404 a NotFoundError", async () => {
    const { client } = await setUp((request, response) => sendJson(response, request.url.endsWith("/missing") ? 404 : 401, { message: "no" }));
    await expect(client.listExternalEventTriggers("missing")).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.listExternalEventTriggers("bot")).rejects.toBeInstanceOf(AuthenticationError);
  });
});

describe("the trigger list", () => {
  test.each([
    ["an array", [trigger, { ...trigger, externalEventId: "second" }], 2],
    ["a single descriptor", trigger, 1],
    ["an empty array", [], 0],
  ])("%s resolves to an array", async (_label, body, length) => {
    const { client } = await setUp((_request, response) => sendJson(response, 200, body));
    const triggers = await client.listExternalEventTriggers("bot");
    expect(triggers).toHaveLength(length);
    expect(triggers[0] ?? trigger).toEqual(trigger);
  });

  test.each([
    ["a number", 42, "expected a trigger or an array of triggers; got 42"],
    ["null", null, "got null"],
    ["an object without a trigger", { items: [] }, 'got {"items":[]}'],
    ["an array with a bad item", [trigger, "x"], 'got "x"'],
  ])("%s is rejected with an UnexpectedResponseError naming what was received", async (_label, body, received) => {
    const { client } = await setUp((_request, response) => sendJson(response, 200, body));
    const error = await client.listExternalEventTriggers("bot").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain(received);
    expect((error as UnexpectedResponseError).body).toEqual(body);
  });
});

describe("the token", () => {
  test("is sent as X-Token on every request, with client-wide and per-call headers", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 200, page), { headers: { "x-client": "a" } });
    await client.searchConversations({}, { headers: { "x-call": "b" } });
    await client.fireExternalEvent(fire);
    expect(server.requests.map((request) => request.headers["x-token"])).toEqual(["secret-token-123", "secret-token-123"]);
    expect(server.requests[0]?.headers).toMatchObject({ "x-client": "a", "x-call": "b" });
    expect(JSON.parse(server.requests[1]?.body ?? "")).toEqual(fire);
  });

  test("a token function is called before every attempt, so a refreshed token is used", async () => {
    let refreshes = 0;
    const { client, server } = await setUp(
      (request, response) => (request.headers["x-token"] === "token-2" ? sendJson(response, 200, page) : sendJson(response, 503, {}, { "retry-after": "0" })),
      { token: async () => `token-${++refreshes}` },
    );
    await expect(client.searchConversations()).resolves.toEqual(page);
    expect(server.requests.map((request) => request.headers["x-token"])).toEqual(["token-1", "token-2"]);
  });

  test("a sync token function works too", async () => {
    const { client, server } = await setUp((_request, response) => sendJson(response, 200, [trigger]), { token: () => "sync-token" });
    await client.listExternalEventTriggers("bot");
    expect(server.requests[0]?.headers["x-token"]).toBe("sync-token");
  });

  test.each([
    ["an error body and header echoing it", 401, { message: "token secret-token-123 is invalid" }],
    ["a server error", 500, { echoed: { token: "secret-token-123" } }],
    ["a non-JSON 2xx", 200, "x-token=secret-token-123"],
  ])("never shows up in an error: %s", async (_label, status, body) => {
    const { client } = await setUp((_request, response) =>
      typeof body === "string"
        ? response.writeHead(status, { "x-echo": "secret-token-123" }).end(body)
        : sendJson(response, status, body, { "x-echo": "secret-token-123", "x-request-id": "r-1" }),
    );
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    for (const form of [(error as Error).message, JSON.stringify(error), inspect(error, { depth: 10, showHidden: true }), String((error as Error).stack)]) {
      expect(form).not.toContain("secret-token-123");
    }
    expect(JSON.stringify(error)).toContain("[redacted]");
  });

  test("is redacted in object keys and strings at any depth, and the rest of the error is kept", async () => {
    const body = { "secret-token-123": { list: ["a secret-token-123 b", 123] } };
    const { client } = await setUp((_request, response) => sendJson(response, 500, body, { "x-request-id": "r-2" }));
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: "ServerError",
      status: 500,
      method: "GET",
      path: "/api/v2/channels/conversations",
      requestId: "r-2",
      body: { "[redacted]": { list: ["a [redacted] b", 123] } },
    });
  });

  test.each([
    ["a token that is also a JSON number in the body", "123", { count: 123, note: "id 123" }, { count: 123, note: "id [redacted]" }],
    [
      "a one-letter token, which only stands-alone occurrences match",
      "e",
      { message: "nope e", e: "e-mail" },
      { message: "nope [redacted]", "[redacted]": "e-mail" },
    ],
  ])("%s never breaks the error into a SyntaxError", async (_label, token, body, redacted) => {
    const { client } = await setUp((_request, response) => sendJson(response, 404, body), { token });
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, path: "/api/v2/channels/conversations", body: redacted });
  });

  test("never shows up in a message that quotes an unexpected body", async () => {
    const { client } = await setUp((_request, response) => sendJson(response, 200, "secret-token-123"));
    const error = await client.listExternalEventTriggers("bot").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain('got "[redacted]"');
    expect(JSON.stringify(error)).not.toContain("secret-token-123");
  });

  test("never shows up in timeout, connection or validation errors", async () => {
    // A fake clock, moved past the time-out only once the server holds the request (so the token was
    // sent), and never after: under load a real 50 ms could also run out before the refused connection
    // of the last call is reported, turning its ConnectionError into a TimeoutError.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const errors: unknown[] = [];
    try {
      let received!: () => void;
      const held = new Promise<void>((resolve) => (received = resolve));
      const { client, server } = await setUp(() => received(), { timeoutMs: 50 });
      const timedOut = client.searchConversations().catch((caught: unknown) => caught);
      await held;
      await vi.advanceTimersByTimeAsync(50);
      errors.push(await timedOut);
      errors.push(await client.fireExternalEvent({ ...fire, externalEventPayload: { orderTotal: "x" } }, { trigger }).catch((caught: unknown) => caught));
      await server.close();
      errors.push(await client.fireExternalEvent(fire).catch((caught: unknown) => caught));
    } finally {
      vi.useRealTimers();
    }
    expect(errors.map((error) => (error as Error).name)).toEqual(["TimeoutError", "EventValidationError", "ConnectionError"]);
    for (const error of errors) {
      expect([(error as Error).message, JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })].join()).not.toContain("secret-token-123");
    }
  });
});

describe("fireExternalEvent with a trigger", () => {
  test("a payload that does not fit is never sent", async () => {
    const { client, server } = await setUp((_request, response) => response.writeHead(200).end());
    const error = await client
      .fireExternalEvent({ ...fire, externalEventPayload: { orderTotal: "12", unknown: 1 } }, { trigger })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EventValidationError);
    expect((error as EventValidationError).problems.map((problem) => problem.variableCode)).toEqual(["orderTotal", "unknown"]);
    expect(server.requests).toHaveLength(0);
  });

  test("another event's trigger is refused as a caller's mistake, naming both", async () => {
    const { client, server } = await setUp((_request, response) => response.writeHead(200).end());
    const error = await client.fireExternalEvent({ ...fire, externalEventId: "other" }, { trigger }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('options.trigger: expected the trigger "other"; got "order-status-changed"');
    expect(server.requests).toHaveLength(0);
  });

  test("a variable of a type this client does not know is sent unchecked, as given", async () => {
    const { client, server } = await setUp((_request, response) => response.writeHead(200).end());
    const newer = { ...trigger, parameters: { ...trigger.parameters, price: { name: "Price", type: "Money" } } } as unknown as ExternalEventTrigger;
    await client.fireExternalEvent({ ...fire, externalEventPayload: { price: { amount: 10, currency: "EUR" }, orderTotal: 12 } }, { trigger: newer });
    expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ externalEventPayload: { price: { amount: 10, currency: "EUR" }, orderTotal: 12 } });
  });

  test("a fitting payload is sent", async () => {
    const { client, server } = await setUp((_request, response) => response.writeHead(200).end());
    await client.fireExternalEvent({ ...fire, externalEventPayload: { orderTotal: 12 } }, { trigger });
    expect(server.requests).toHaveLength(1);
  });
});
