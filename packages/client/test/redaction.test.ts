import { afterEach, describe, expect, test } from "vitest";
import { ApiError, ConnectionError, createBotConversationClient, UnexpectedResponseError } from "../src/index.js";
import { everyForm } from "./support/forms.js";
import { type RawServer, startRawServer } from "./support/raw-server.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

let server: TestServer | RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A node:http server that answers every request with `status`, echoing the X-Token it received in a header and in the body. */
async function echoing(status: number) {
  server = await startServer((request, response) =>
    sendJson(
      response,
      status,
      { message: `token ${request.headers["x-token"]} refused`, echoed: request.headers["x-token"] },
      { "x-echo": String(request.headers["x-token"]) },
    ),
  );
  return server;
}

describe("redaction is per call and exact, over every form of an error", () => {
  test("a token function minting a token per attempt, 12 calls in flight: no error shows any token it sent", async () => {
    const { url } = await echoing(401);
    let minted = 0;
    const client = createBotConversationClient({ baseUrl: url, token: async () => `tok-minted-${++minted}-secret`, maxRetries: 0 });
    const errors = await Promise.all(Array.from({ length: 12 }, () => client.searchConversations().catch((caught: unknown) => caught)));
    expect(minted).toBe(12);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ApiError);
      expect(everyForm(error)).not.toMatch(/tok-minted-\d+-secret/);
      expect((error as ApiError).body).toEqual({ message: "token [redacted] refused", echoed: "[redacted]" });
    }
  });

  test("a token read from a file with a trailing newline is sent trimmed and redacted as sent", async () => {
    const { url, requests } = (await echoing(500)) as TestServer;
    const client = createBotConversationClient({ baseUrl: url, token: "secret-from-file-123\n" });
    const error = await client.listExternalEventTriggers("bot").catch((caught: unknown) => caught);
    expect(requests[0]?.headers["x-token"]).toBe("secret-from-file-123");
    expect(everyForm(error)).not.toContain("secret-from-file-123");
  });

  test("the excerpt of an unexpected body is redacted before it is cut, so no part of a long token is left", async () => {
    const token = `${"k".repeat(33)}${"z".repeat(33)}`;
    server = await startServer((_request, response) => sendJson(response, 200, `token ${token}`));
    const client = createBotConversationClient({ baseUrl: server.url, token });
    const error = await client.listExternalEventTriggers("bot").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain('got "token [redacted]"');
    expect(everyForm(error)).not.toMatch(/k{8}|z{8}/);
  });

  test("undici's parser error keeps the raw response bytes in its cause chain: the client keeps only a redacted summary", async () => {
    server = await startRawServer((socket) => socket.end("HTTP/1.1 200 OK\r\nX-Echo: tok-SECRET-123\r\nBad\u0001Header: tok-SECRET-123\r\n\r\n"));
    const client = createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123", maxRetries: 0 });
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^GET request failed: fetch failed: Response does not match the HTTP\/1\.1 protocol/);
    expect((error as Error).cause).toBeUndefined();
    expect(everyForm(error)).not.toContain("tok-SECRET-123");
  });

  test("a short token is redacted where it stands alone, and ordinary words that contain its letters are left as they are", async () => {
    server = await startServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<p>t</p> expected text"));
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('GET /api/v2/channels/conversations answered 200 but expected a JSON body; got "<p>[redacted]</p> expected text"');
  });
});

describe("a token the client cannot send is a TypeError that never quotes it, and nothing is sent", () => {
  test("a static token with an inner line break is refused when the client is created", () => {
    const create = () => createBotConversationClient({ baseUrl: "http://127.0.0.1:9", token: "tok-SECRET\n-123" });
    expect(create).toThrow(new TypeError("token: expected a non-empty string of printable ASCII; got string"));
  });

  test.each([
    ["a line break inside", () => "tok-SECRET\r\nX-Injected: 1", "got string"],
    ["undefined", () => undefined as unknown as string, "got undefined"],
    ["an empty string", () => "  ", "got string"],
    ["a number", () => 12345 as unknown as string, "got number"],
  ])("a token function returning %s", async (_label, token, got) => {
    server = await startServer((_request, response) => response.writeHead(200).end());
    const client = createBotConversationClient({ baseUrl: server.url, token });
    const error = await client.fireExternalEvent({ conversationId: "c", externalEventId: "e" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(`token: the function's result: expected a non-empty string of printable ASCII; ${got}`);
    expect(everyForm(error)).not.toContain("tok-SECRET");
    expect(server.requests).toEqual([]);
  });

  test("an error thrown by the token function is named, its message (which may hold a secret) is not copied", async () => {
    server = await startServer((_request, response) => response.writeHead(200).end());
    const client = createBotConversationClient({
      baseUrl: server.url,
      token: () => {
        throw new RangeError("refresh failed for tok-SECRET-123");
      },
    });
    const error = await client.searchConversations().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("token: the function threw RangeError");
    expect(everyForm(error)).not.toContain("tok-SECRET-123");
    expect(server.requests).toEqual([]);
  });
});
