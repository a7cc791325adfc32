import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { AbortError, TimeoutError } from "../src/errors.js";
import { type Call, createTransport } from "../src/internal/transport.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A transport over a fetch that answers at once, recording the signal of each attempt. */
function transport() {
  const signals: AbortSignal[] = [];
  const send = createTransport({
    token: "t",
    timeoutMs: 1_000,
    maxRetries: 2,
    fetch: async (_request, init) => {
      signals.push(init!.signal!);
      return new Response("{}");
    },
  });
  const call: Call = { path: "/x", tokens: new Set<string>() };
  return { send: (request: Request) => send(request, call), signals, call };
}

describe("the attempt's timeout and caller link (fake clock)", () => {
  test("the timeout keeps covering the response until its body is settled, so a slow body read times out", async () => {
    const { send, signals } = transport();
    await send(new Request("http://127.0.0.1/x"));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(signals[0]?.reason).toBeInstanceOf(TimeoutError);
    expect((signals[0]!.reason as Error).message).toBe("GET request timed out after 1000 ms");
  });

  test("once settled, neither the timer nor the caller aborts the attempt any more", async () => {
    const { send, signals, call } = transport();
    const caller = new AbortController();
    await send(new Request("http://127.0.0.1/x", { signal: caller.signal }));
    call.settle?.();
    await vi.advanceTimersByTimeAsync(5_000);
    caller.abort();
    expect(signals[0]?.aborted).toBe(false);
  });

  test("the caller's abort reaches an open attempt as an AbortError", async () => {
    const { send, signals } = transport();
    const caller = new AbortController();
    const request = new Request("http://127.0.0.1/x", { signal: caller.signal });
    await send(request);
    caller.abort();
    expect(signals[0]?.reason).toBeInstanceOf(AbortError);
  });
});

describe("the wait before a retry (fake clock)", () => {
  test("an abort that lands while a retried response's body is cancelled ends the call at once, not after the wait", async () => {
    const caller = new AbortController();
    const send = createTransport({
      token: "t",
      timeoutMs: 60_000,
      maxRetries: 2,
      // The caller aborts during the cancel of the 503's body, after the check before the wait.
      fetch: async () => new Response(new ReadableStream({ cancel: () => caller.abort() }), { status: 503, headers: { "retry-after": "30" } }),
    });
    let outcome: unknown = "still waiting";
    void send(new Request("http://127.0.0.1/x", { signal: caller.signal }), { path: "/x", tokens: new Set<string>() }).catch(
      (error: unknown) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(AbortError);
  });
});
