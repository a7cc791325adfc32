import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createTransport, retryTiming } from "../src/internal/transport.js";
import { isRetryableStatus, parseRetryAfter, retryDelay } from "../src/retry.js";

describe("isRetryableStatus", () => {
  test.each([
    [408, true],
    [429, true],
    [502, true],
    [503, true],
    [504, true],
    [400, false],
    [401, false],
    [404, false],
    [500, false],
    [501, false],
  ])("%i -> %s", (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});

describe("parseRetryAfter", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse("2026-11-20T09:00:00Z"), toFake: ["Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test.each([
    ["0", 0],
    ["3", 3_000],
    ["60", 60_000],
    ["61", undefined],
    ["Fri, 20 Nov 2026 09:00:10 GMT", 10_000],
    ["Fri, 20 Nov 2026 08:59:00 GMT", 0],
    ["Fri, 20 Nov 2026 09:05:00 GMT", undefined],
    // Only whole non-negative seconds or an IMF-fixdate: anything else falls back to the backoff.
    ["-1", undefined],
    ["1.5", undefined],
    ["0x3", undefined],
    ["1e0", undefined],
    [" 3", undefined],
    ["+3", undefined],
    ["Friday, 20-Nov-26 09:00:10 GMT", undefined],
    ["Fri Nov 20 09:00:10 2026", undefined],
    // An IMF-fixdate whose weekday is not the date's is not one.
    ["Thu, 20 Nov 2026 09:00:10 GMT", undefined],
    ["Fri, 20 Nov 2026 09:00:10 UTC", undefined],
    ["2026-11-20T09:00:10Z", undefined],
    ["soon", undefined],
    ["", undefined],
    [null, undefined],
  ])("%j -> %j ms", (value, expected) => {
    expect(parseRetryAfter(value)).toBe(expected);
  });
});

describe("retryDelay", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test.each([
    [1, 500],
    [2, 1_000],
    [3, 2_000],
    [5, 8_000],
    [10, 8_000],
  ])("retry %i without jitter waits %i ms (exponential from 0.5 s, capped at 8 s)", (retry, expected) => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(retryDelay(retry, null)).toBe(expected);
  });

  test("jitter shortens the wait by up to a quarter", () => {
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    expect(retryDelay(2, null)).toBeCloseTo(750.25, 1);
  });

  test("a usable Retry-After wins over the backoff; an over-long one does not", () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(retryDelay(1, "7")).toBe(7_000);
    expect(retryDelay(1, "3600")).toBe(500);
  });
});

describe("transport timing (fake fetch, replaced sleep and random)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function run(responses: (Response | Error)[], method = "GET") {
    const waits: number[] = [];
    let calls = 0;
    vi.spyOn(Math, "random").mockReturnValue(0);
    vi.spyOn(retryTiming, "sleep").mockImplementation(async (ms) => {
      waits.push(ms);
    });
    const send = createTransport({
      token: "t",
      timeoutMs: 1_000,
      maxRetries: 2,
      fetch: async () => {
        const next = responses[calls++];
        if (next instanceof Error) throw next;
        return next ?? new Response("{}");
      },
    });
    const response = await send(new Request("http://127.0.0.1/x", { method }), { path: "/x", tokens: new Set<string>() }).catch((error: unknown) => error);
    return { response, waits, calls };
  }

  test("two retries wait 0.5 s then 1 s", async () => {
    const { waits, calls } = await run([new Response("", { status: 503 }), new Response("", { status: 502 }), new Response("{}")]);
    expect(waits).toEqual([500, 1_000]);
    expect(calls).toBe(3);
  });

  test("Retry-After as an HTTP date is honoured", async () => {
    const date = new Date(Date.now() + 20_000).toUTCString();
    const { waits } = await run([new Response("", { status: 429, headers: { "retry-after": date } }), new Response("{}")]);
    expect(waits[0]).toBeGreaterThan(18_000);
    expect(waits[0]).toBeLessThanOrEqual(20_000);
  });

  test("connection errors on a GET are retried with backoff", async () => {
    const { waits, calls, response } = await run([new TypeError("fetch failed"), new TypeError("fetch failed"), new Response("{}")]);
    expect(response).toBeInstanceOf(Response);
    expect(waits).toEqual([500, 1_000]);
    expect(calls).toBe(3);
  });

  test("a POST is never retried", async () => {
    const { waits, calls } = await run([new Response("", { status: 503 }), new Response("{}")], "POST");
    expect(waits).toEqual([]);
    expect(calls).toBe(1);
  });
});
