import { afterEach, describe, expect, test, vi } from "vitest";
import { createSandbox } from "../src/index.ts";

const token = { "x-token": "sandbox-token" };
const searchUrl = "http://sandbox.test/api/v2/channels/conversations";

/** Whether a promise has settled, after the microtasks already queued have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let turn = 0; turn < 20; turn++) await Promise.resolve();
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("latency (issue 21): each answer waits its operation's delay, on the sandbox's clock", () => {
  test("a fixed latency for one operation holds that operation's answers, and only those", async () => {
    const sandbox = await createSandbox({ conversations: 5, latency: { searchConversations: 250 } });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const search = sandbox.fetch(searchUrl, { headers: token });
    await vi.advanceTimersByTimeAsync(249);
    expect(await settled(search)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await search).status).toBe(200);
    // The trigger list has no latency: it answers without the clock moving.
    const triggers = sandbox.fetch("http://sandbox.test/api/v1/runtime/simple/external/events/5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c", { headers: token });
    expect((await triggers).status).toBe(200);
    await sandbox.close();
  });

  test("a range draws each wait from the seed: the same seed, the same waits", async () => {
    const waits = async (seed: string) => {
      const sandbox = await createSandbox({ conversations: 5, seed, latency: { min: 100, max: 900 } });
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const found: number[] = [];
      for (let request = 0; request < 4; request++) {
        const answer = sandbox.fetch(searchUrl, { headers: token });
        let waited = 0;
        while (!(await settled(answer))) {
          await vi.advanceTimersByTimeAsync(10);
          waited += 10;
        }
        found.push(waited);
      }
      vi.useRealTimers();
      await sandbox.close();
      return found;
    };
    const first = await waits("latency-a");
    expect(first.every((wait) => wait >= 100 && wait <= 910)).toBe(true);
    expect(new Set(first).size).toBeGreaterThan(1);
    expect(await waits("latency-a")).toEqual(first);
  });
});

describe("a fault that times out (issue 21: the next fire times out)", () => {
  test("the next fire is never answered until its client gives up; the one after is served", async () => {
    const sandbox = await createSandbox({ conversations: 5 });
    await sandbox.fault({ operationId: "fireExternalEvent", timeout: true });
    const body = JSON.stringify({ conversationId: "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", externalEventId: "order-status-changed" });
    const init = { method: "POST", headers: { ...token, "content-type": "application/json" }, body };
    const giveUp = new AbortController();
    const hanging = sandbox.fetch(new Request("http://sandbox.test/api/v1/runtime/simple/external/events", { ...init, signal: giveUp.signal }));
    // Other requests are answered meanwhile.
    expect((await sandbox.fetch(searchUrl, { headers: token })).status).toBe(200);
    expect(await settled(hanging)).toBe(false);
    giveUp.abort();
    await hanging.catch(() => undefined);
    expect(await sandbox.firedEvents()).toEqual([]);
    expect((await sandbox.fetch("http://sandbox.test/api/v1/runtime/simple/external/events", init)).status).toBe(200);
    expect(await sandbox.firedEvents()).toHaveLength(1);
    await sandbox.close();
  });
});
