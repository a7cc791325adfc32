import { afterEach, describe, expect, test, vi } from "vitest";
import { ConnectionError, createBotConversationClient, OutcomeUnknownError, TimeoutError } from "../src/index.js";
import { noteResponse } from "./support/arrival.js";
import { type RawServer, startRawServer } from "./support/raw-server.js";

let server: RawServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

const fire = { conversationId: "c-1", externalEventId: "order-status-changed" };
const head = (status: string) => `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"ok":`;
const timeoutMs = 300;

/**
 * A node:net server that writes a status line and part of a body, then stalls or resets the connection,
 * and a client of it. Both endings happen only once the client holds the response (its fetch resolved),
 * never after a fixed wait: a reset that overtakes the status line, or a time-out that fires before it
 * (a loaded machine can take longer than any fixed wait), would be a different case. The attempt's
 * timer runs on a fake clock: moved past `timeoutMs` only once the response arrived, so "stall" is
 * always a time-out after the status line, and never moved for "reset", so only the reset ends it.
 */
async function cutShort(status: string, ending: "stall" | "reset") {
  const { fetch, responded } = noteResponse();
  server = await startRawServer((socket) => {
    socket.write(head(status));
    if (ending === "reset") void responded.then(() => socket.resetAndDestroy());
  });
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const client = createBotConversationClient({ baseUrl: server.url, token: "tok-SECRET-123", timeoutMs, maxRetries: 0, fetch });
  /** Runs a call to its end: for a stall, moves the clock past the time-out once the status line arrived. */
  const settle = async <T>(call: Promise<T>): Promise<T> => {
    const outcome = call.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    if (ending === "stall") {
      await responded;
      await vi.advanceTimersByTimeAsync(timeoutMs);
    }
    const result = await outcome;
    if ("error" in result) throw result.error;
    return result.value;
  };
  return { client, settle };
}

describe("a fire answered 200 whose body then fails: delivered, outcome unknown", () => {
  test.each(["stall", "reset"] as const)("body %s: OutcomeUnknownError naming the status, not a timeout or a connection error", async (ending) => {
    const { client, settle } = await cutShort("200 OK", ending);
    const error = await settle(client.fireExternalEvent(fire)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/^POST \/api\/v1\/runtime\/simple\/external\/events answered 200, then failed: .+; outcome unknown$/);
    expect(server!.requests).toHaveLength(1);
  });

  test("the same on a search is a TimeoutError or a ConnectionError: a read can be repeated", async () => {
    const stalled = await cutShort("200 OK", "stall");
    await expect(stalled.settle(stalled.client.searchConversations())).rejects.toBeInstanceOf(TimeoutError);
    vi.useRealTimers();
    await server!.close();
    const reset = await cutShort("200 OK", "reset");
    await expect(reset.settle(reset.client.searchConversations())).rejects.toThrow(
      /^GET \/api\/v2\/channels\/conversations answered 200, then failed: terminated/,
    );
  });

  test("a fire that got no status line at all stays a ConnectionError", async () => {
    server = await startRawServer((socket) => socket.resetAndDestroy());
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    await expect(client.fireExternalEvent(fire)).rejects.toBeInstanceOf(ConnectionError);
  });
});
