/**
 * Replicas of a shared sandbox as processes on one real PostgreSQL: a change on one seen by the other,
 * a replica killed with SIGKILL during a burst of fires, and PostgreSQL stopped and started during one.
 */
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { adminToken, call, createWorkspace, usePostgres } from "./support/shared.ts";

const postgres = usePostgres();
const launched: LaunchedSandbox[] = [];
afterEach(async () => {
  await Promise.all(launched.splice(0).map((replica) => replica.stop("SIGKILL")));
});

/** Starts a replica on the database, stopped after the test. */
async function replica(databaseUrl: string): Promise<LaunchedSandbox> {
  const started = await launchSandbox(["--conversations", "20"], { env: { DATABASE_URL: databaseUrl, SANDBOX_ADMIN_TOKEN: adminToken } });
  launched.push(started);
  return started;
}

/** The example fixture's first conversation, fired into with a marker as its order number. */
const conversationId = exampleFixture().conversations[0]!.conversation.id;
const fireBody = (marker: string) => ({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: marker } });

/** Every marker the workspace's fired events hold, read a page at a time (each as often as it is held). */
async function firedMarkers(url: string, token: string): Promise<string[]> {
  const markers: string[] = [];
  for (let cursor = "0"; ; ) {
    const response = await call(url, token, `/_sandbox/fired-events?limit=10000&cursor=${cursor}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { externalEventPayload: { orderNumber: string } }[];
    markers.push(...page.map((event) => event.externalEventPayload.orderNumber));
    const next = response.headers.get("x-next-cursor");
    if (next === null) return markers;
    cursor = next;
  }
}

/** What a burst of fires saw: the markers sent, those acknowledged (200), and every other answer. */
interface Burst {
  readonly sent: Set<string>;
  readonly acknowledged: Set<string>;
  /** Each answer that was not a 200: its status, `Retry-After` and body; `0` for no answer (a connection refused or cut). */
  readonly refusals: { status: number; retryAfter: string | null; detail: string; url: string }[];
  /** Acknowledged fires, by replica URL. */
  readonly perReplica: Map<string, number>;
}

/**
 * Fires from 16 workers at once through the live replicas, in turn, each fire with its own marker, until
 * `done(burst)` holds; `live()` names the replicas to use now.
 */
async function burst(live: () => readonly string[], token: string, done: (seen: Burst) => boolean): Promise<Burst> {
  const seen: Burst = { sent: new Set(), acknowledged: new Set(), refusals: [], perReplica: new Map() };
  let counter = 0;
  const worker = async () => {
    while (!done(seen)) {
      const urls = live();
      const url = urls[counter % urls.length]!;
      const marker = `fire-${counter++}`;
      seen.sent.add(marker);
      try {
        const response = await call(url, token, "/api/v1/runtime/simple/external/events", { method: "POST", json: fireBody(marker) });
        if (response.status === 200) {
          seen.acknowledged.add(marker);
          seen.perReplica.set(url, (seen.perReplica.get(url) ?? 0) + 1);
          await response.body?.cancel();
        } else {
          const text = await response.text();
          seen.refusals.push({ status: response.status, retryAfter: response.headers.get("retry-after"), detail: text, url });
        }
      } catch {
        seen.refusals.push({ status: 0, retryAfter: null, detail: "no answer", url });
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return seen;
}

/** Every acknowledged marker held exactly once, and nothing held that was not sent. */
function expectKeptExactlyOnce(markers: readonly string[], seen: Burst): void {
  const counts = new Map<string, number>();
  for (const marker of markers) counts.set(marker, (counts.get(marker) ?? 0) + 1);
  expect([...seen.acknowledged].filter((marker) => counts.get(marker) !== 1)).toEqual([]);
  expect([...counts].filter(([marker, count]) => count > 1 || !seen.sent.has(marker))).toEqual([]);
}

describe("replicas as processes on one PostgreSQL", () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await postgres.database();
  });

  test(
    "a fire on one is listed by the other; a reset on one is seen by the other",
    async () => {
      const [first, second] = [await replica(databaseUrl), await replica(databaseUrl)];
      const token = await createWorkspace(first.url, { name: "pair", fixture: exampleFixture() });
      expect((await call(first.url, token, "/api/v1/runtime/simple/external/events", { method: "POST", json: fireBody("across") })).status).toBe(200);
      expect(await firedMarkers(second.url, token)).toEqual(["across"]);

      const total = async () => ((await (await call(second.url, token, "/api/v2/channels/conversations")).json()) as { totalItemCount: number }).totalItemCount;
      expect(await total()).toBe(2);
      expect((await call(first.url, token, "/_sandbox/reset", { method: "POST", json: { seed: "after", conversations: 9 } })).status).toBe(200);
      // Waited for, not timed (pnpm bench measures how soon): asked again until the second replica answers
      // from the new data; the 20 s guard turns a change that never comes into a failure, not a hang.
      const deadline = performance.now() + 20_000;
      let count = await total();
      while (count !== 9 && performance.now() < deadline) count = await total();
      expect(count).toBe(9);
      expect(await firedMarkers(second.url, token)).toEqual([]);
    },
    heavyTestTimeoutMs,
  );

  test(
    "SIGKILL of one replica during a burst of fires through both: every acknowledged fire present exactly once; the other keeps answering; the killed one rejoins",
    async () => {
      const [first, second] = [await replica(databaseUrl), await replica(databaseUrl)];
      const token = await createWorkspace(first.url, { name: "killed", fixture: exampleFixture() });
      let killed = false;
      const seen = await burst(
        () => (killed ? [second.url] : [first.url, second.url]),
        token,
        (state) => {
          if (!killed && (state.perReplica.get(first.url) ?? 0) >= 150) {
            killed = true;
            first.process.kill("SIGKILL");
          }
          // After the kill, the survivor goes on acknowledging.
          return killed && (state.perReplica.get(second.url) ?? 0) >= 450;
        },
      );
      expect(killed).toBe(true);
      // Only the killed replica failed to answer; the survivor refused nothing.
      expect(seen.refusals.filter((refusal) => refusal.url === second.url)).toEqual([]);
      const rejoined = await replica(databaseUrl);
      expectKeptExactlyOnce(await firedMarkers(rejoined.url, token), seen);
      expect((await call(rejoined.url, token, "/api/v1/runtime/simple/external/events", { method: "POST", json: fireBody("after-rejoin") })).status).toBe(200);
    },
    heavyTestTimeoutMs,
  );

  test(
    "PostgreSQL stopped and started during a burst: every acknowledged fire present, every refusal a documented 503 with Retry-After, both replicas recover",
    async () => {
      const [first, second] = [await replica(databaseUrl), await replica(databaseUrl)];
      const token = await createWorkspace(first.url, { name: "outage", fixture: exampleFixture() });
      const server = postgres.server();
      let phase: "before" | "stopping" | "stopped" | "starting" | "started" = "before";
      let acknowledgedAtRestart = new Map<string, number>();
      const seen = await burst(
        () => [first.url, second.url],
        token,
        (state) => {
          if (phase === "before" && state.acknowledged.size >= 200) {
            phase = "stopping";
            void server.stop().then(() => (phase = "stopped"));
          }
          if (phase === "stopped" && state.refusals.length >= 50) {
            phase = "starting";
            void server.start().then(() => {
              acknowledgedAtRestart = new Map(state.perReplica);
              phase = "started";
            });
          }
          // Both replicas acknowledge fires again once the database is back.
          return phase === "started" && [first.url, second.url].every((url) => (state.perReplica.get(url) ?? 0) >= (acknowledgedAtRestart.get(url) ?? 0) + 100);
        },
      );
      expect(seen.refusals.length).toBeGreaterThanOrEqual(50);
      const kinds = new Set(seen.refusals.map((refusal) => `${refusal.status} Retry-After ${refusal.retryAfter === null ? "none" : "given"}`));
      expect([...kinds]).toEqual(["503 Retry-After given"]);
      expect(seen.refusals.every((refusal) => JSON.parse(refusal.detail).status === 503)).toBe(true);
      expectKeptExactlyOnce(await firedMarkers(second.url, token), seen);
      // Ready again, both.
      for (const url of [first.url, second.url]) {
        const deadline = performance.now() + 30_000; // a guard against a hang, not a bound on speed
        let ready = await fetch(`${url}/_sandbox/ready`);
        while (ready.status !== 200 && performance.now() < deadline) ready = await fetch(`${url}/_sandbox/ready`);
        expect(ready.status).toBe(200);
      }
    },
    heavyTestTimeoutMs,
  );
});
