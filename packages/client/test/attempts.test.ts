import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { AbortError, TimeoutError } from "../src/errors.js";
import { createAttempts, keepAttempt, settleAttempt } from "../src/internal/attempts.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("attempt deadlines (one shared timer, fake clock)", () => {
  test("an attempt still open at its deadline aborts with a TimeoutError; a settled one never does", async () => {
    const start = createAttempts(1_000);
    const open = start(new AbortController().signal, "GET");
    const settled = start(new AbortController().signal, "POST");
    settled.settle();
    await vi.advanceTimersByTimeAsync(999);
    expect(open.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(open.signal.reason).toBeInstanceOf(TimeoutError);
    expect((open.signal.reason as Error).message).toBe("GET attempt timed out after 1000 ms");
    await vi.advanceTimersByTimeAsync(5_000);
    expect(settled.signal.aborted).toBe(false);
  });

  test("a later attempt gets its own full timeout after an earlier one settles", async () => {
    const start = createAttempts(1_000);
    const first = start(new AbortController().signal, "GET");
    await vi.advanceTimersByTimeAsync(600);
    const second = start(new AbortController().signal, "GET");
    first.settle();
    await vi.advanceTimersByTimeAsync(999);
    expect(second.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(second.signal.reason).toBeInstanceOf(TimeoutError);
  });

  test("the caller's abort aborts the attempt with an AbortError, until the attempt is settled", () => {
    const start = createAttempts(1_000);
    const caller = new AbortController();
    const attempt = start(caller.signal, "GET");
    caller.abort();
    expect(attempt.signal.reason).toBeInstanceOf(AbortError);

    const laterCaller = new AbortController();
    const settled = start(laterCaller.signal, "GET");
    settled.settle();
    laterCaller.abort();
    expect(settled.signal.aborted).toBe(false);
  });

  test("settleAttempt settles the attempt kept on a response, so its body read is no longer timed", async () => {
    const start = createAttempts(1_000);
    const attempt = start(new AbortController().signal, "GET");
    const response = new Response("{}");
    keepAttempt(response, attempt);
    settleAttempt(response);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(attempt.signal.aborted).toBe(false);
  });
});
