import { afterEach, describe, expect, test } from "vitest";
import { ConnectionError, createBotConversationClient, OutcomeUnknownError, TimeoutError } from "../src/index.js";
import { startRawServer, type RawServer } from "./support/raw-server.js";

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fire = { conversationId: "c-1", externalEventId: "order-status-changed" };
const head = (status: string) => `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"ok":`;

/** A node:net server that writes a status line and part of a body, then stalls or resets the connection. */
async function cutShort(status: string, ending: "stall" | "reset") {
  server = await startRawServer((socket) => {
    socket.write(head(status));
    if (ending === "reset") setTimeout(() => socket.resetAndDestroy(), 20);
  });
  // 1 s, not less: under a loaded machine (the whole suite in parallel) the status line alone took over 300 ms.
  return createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123", timeoutMs: 1_000, maxRetries: 0 });
}

describe("a fire answered 200 whose body then fails: delivered, outcome unknown", () => {
  test.each(["stall", "reset"] as const)("body %s: OutcomeUnknownError with the status, not a timeout or a connection error", async (ending) => {
    const client = await cutShort("200 OK", ending);
    const error = await client.fireExternalEvent(fire).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 200 });
    expect((error as Error).message).toMatch(/^POST \/api\/v1\/runtime\/simple\/external\/events answered 200, then failed: .+; outcome unknown$/);
    expect(server!.requests).toHaveLength(1);
  });

  test("the same on a search is a TimeoutError or a ConnectionError: a read can be repeated", async () => {
    const stalled = await cutShort("200 OK", "stall");
    await expect(stalled.searchConversations()).rejects.toBeInstanceOf(TimeoutError);
    await server!.close();
    const reset = await cutShort("200 OK", "reset");
    await expect(reset.searchConversations()).rejects.toThrow(/^GET \/api\/v2\/channels\/conversations answered 200, then failed: terminated/);
  });

  test("a fire that got no status line at all stays a ConnectionError", async () => {
    server = await startRawServer((socket) => socket.resetAndDestroy());
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    await expect(client.fireExternalEvent(fire)).rejects.toBeInstanceOf(ConnectionError);
  });
});
