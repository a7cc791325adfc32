/** The shared sandbox's storage faults on a real PostgreSQL (issue 38): a stalled database. */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.ts";
import { adminToken, call, createWorkspace, usePostgres } from "./support/shared.ts";

const postgres = usePostgres();
const token = "sandbox-token";
const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";
const firePath = "/api/v1/runtime/simple/external/events";
const validFire = { conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "A-1" } };

/** Resolves to the answer, or rejects when none came within `ms`: a guard against a request held for the whole stall, not a timing. */
async function answered(request: Promise<Response>, ms = 25_000): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: held for the stall`)), ms)));
  try {
    return await Promise.race([request, guard]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a stalled PostgreSQL (every process SIGSTOPped)", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ databaseUrl: await postgres.database(), adminToken });
  });
  afterAll(() => sandbox?.close());

  test("a fire, the fired events and readiness answer 503 (with Retry-After where the client may retry) within the bound, an invalid fire its 400, and all is well once it goes on", {
    timeout: 120_000,
  }, async () => {
    expect((await call(sandbox, token, firePath, { method: "POST", json: validFire })).status).toBe(200);
    postgres.server().pause();
    try {
      const [fire, events, ready, invalid] = await Promise.all([
        answered(call(sandbox, token, firePath, { method: "POST", json: validFire })),
        answered(call(sandbox, token, "/_sandbox/fired-events")),
        answered(call(sandbox, token, "/_sandbox/ready")),
        answered(call(sandbox, token, firePath, { method: "POST", json: { conversationId } })),
      ]);
      expect({ fire: fire.status, events: events.status, ready: ready.status, invalid: invalid.status }).toEqual({
        fire: 503,
        events: 503,
        ready: 503,
        invalid: 400,
      });
      for (const response of [fire, events]) {
        expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(((await response.json()) as { detail: string }).detail).toMatch(/database/);
      }
      expect(((await invalid.json()) as { detail: string }).detail).toContain("externalEventId");
    } finally {
      postgres.server().resume();
    }
    // The connections that timed out are dropped; the next requests get new ones.
    await expect.poll(async () => (await call(sandbox, token, "/_sandbox/ready")).status, { timeout: 30_000 }).toBe(200);
    expect((await call(sandbox, token, firePath, { method: "POST", json: { ...validFire, externalEventPayload: { orderNumber: "A-2" } } })).status).toBe(200);
    const events = (await (await call(sandbox, token, "/_sandbox/fired-events")).json()) as { externalEventPayload: { orderNumber: string } }[];
    expect(events.map((event) => event.externalEventPayload.orderNumber)).toEqual(["A-1", "A-2"]);
  });
});

describe("text PostgreSQL cannot hold (NUL, an unpaired surrogate): a 400 naming the field, before any query, in every mode", () => {
  let shared: Sandbox;
  let memory: Sandbox;
  beforeAll(async () => {
    shared = await createSandbox({ databaseUrl: await postgres.database(), adminToken });
    memory = await createSandbox({ adminToken });
  });
  afterAll(async () => {
    await shared?.close();
    await memory?.close();
  });

  const fireWith = (json: unknown) => ({ method: "POST", json });
  test.each([
    ["the fired events' conversationId", token, "/_sandbox/fired-events?conversationId=a%00b", {}, "query.conversationId"],
    ["the fired events' externalEventId", token, "/_sandbox/fired-events?externalEventId=%00", {}, "query.externalEventId"],
    ["a reset's seed", token, "/_sandbox/reset", { method: "POST", json: { seed: "a\u0000b" } }, "$.seed"],
    [
      "a fire's payload value",
      token,
      firePath,
      fireWith({ ...validFire, externalEventPayload: { orderNumber: "A\u0000" } }),
      "$.externalEventPayload.orderNumber",
    ],
    [
      "a fire's identifier that is kept as sent",
      token,
      firePath,
      fireWith({ ...validFire, externalConversationId: "x\u0000|livechat" }),
      "$.externalConversationId",
    ],
    [
      "a fire's payload value with an unpaired surrogate",
      token,
      firePath,
      fireWith({ ...validFire, externalEventPayload: { orderNumber: "A\ud800" } }),
      "$.externalEventPayload.orderNumber",
    ],
    ["a workspace's seed", adminToken, "/_sandbox/workspaces", { method: "POST", json: { name: "nul-seed", seed: "\u0000" } }, "$.seed"],
    ["a workspace's name in the path", adminToken, "/_sandbox/workspaces/a%00b", { method: "DELETE" }, "path.name"],
  ] as const)("%s", async (_name, given, path, init, field) => {
    for (const [mode, sandbox] of [
      ["shared", shared],
      ["memory", memory],
    ] as const) {
      const response = await call(sandbox, given, path, init as RequestInit & { json?: unknown });
      const problem = (await response.json()) as { status: number; errors?: { path: string; message: string }[] };
      expect({ mode, status: response.status, paths: problem.errors?.map((defect) => defect.path) }).toEqual({ mode, status: 400, paths: [field] });
      expect(problem.errors![0]!.message).toMatch(/^must not contain (U\+0000 \(NUL\)|an unpaired surrogate)/);
    }
    // Nothing was kept, and the database still answers.
    expect((await call(shared, token, "/_sandbox/fired-events")).status).toBe(200);
  });
});

describe("a wrong token costs no database round trip: the replica knows the workspaces' token hashes", () => {
  let sandbox: Sandbox;
  let other: Sandbox;
  beforeAll(async () => {
    const url = await postgres.database();
    sandbox = await createSandbox({ databaseUrl: url, adminToken });
    other = await createSandbox({ databaseUrl: url, adminToken });
  });
  afterAll(async () => {
    await sandbox?.close();
    await other?.close();
  });

  test("with PostgreSQL stalled, wrong tokens are each a 401 (never a 503 after a wait); a workspace made on another replica is known by its notification, one removed is forgotten", {
    timeout: 120_000,
  }, async () => {
    const made = await createWorkspace(other, { name: "known", seed: "known", conversations: 3 });
    // Known to this replica once the creation's notification arrived (waited for, not timed).
    await expect.poll(async () => (await call(sandbox, made, "/_sandbox/bots")).status, { timeout: 20_000 }).toBe(200);
    // A search once before the stall: the workspace's armed faults are read by then.
    expect((await call(sandbox, made, "/api/v2/channels/conversations")).status).toBe(200);
    postgres.server().pause();
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => answered(call(sandbox, `wrong-token-${index}`, "/api/v2/channels/conversations"))),
      );
      expect(answers.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 401));
      // The workspace loaded before the stall still answers its searches from memory.
      const search = await answered(call(sandbox, made, "/api/v2/channels/conversations"));
      expect(search.status, await search.clone().text()).toBe(200);
    } finally {
      postgres.server().resume();
    }
    expect((await call(other, adminToken, "/_sandbox/workspaces/known", { method: "DELETE" })).status).toBe(204);
    await expect.poll(async () => (await call(sandbox, made, "/_sandbox/bots")).status, { timeout: 20_000 }).toBe(401);
  });
});

describe("the fired-events cursor never steps past a fire that commits late (issue 38, item 7)", () => {
  let sandbox: Sandbox;
  let url: string;
  beforeAll(async () => {
    url = await postgres.database();
    sandbox = await createSandbox({ databaseUrl: url, adminToken });
  });
  afterAll(() => sandbox?.close());

  test("a fire slow to commit, a fire after it, and a reader walking the pages meanwhile: what the walk saw is the start of the list, in order", {
    timeout: 60_000,
  }, async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Test scaffolding on the real database: the row of the fire "late" holds its transaction open 1.5 s after its INSERT.
      await client.query(`CREATE FUNCTION late_fire() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.payload->>'orderNumber' = 'late' THEN PERFORM pg_sleep(1.5); END IF; RETURN NEW; END $$`);
      await client.query("CREATE TRIGGER late_fire AFTER INSERT ON sandbox_fired_events FOR EACH ROW EXECUTE FUNCTION late_fire()");
      const fireMarked = (marker: string) =>
        call(sandbox, token, firePath, { method: "POST", json: { ...validFire, externalEventPayload: { orderNumber: marker } } });
      expect((await fireMarked("first")).status).toBe(200);
      const late = fireMarked("late");
      // Once the late fire's row is written and its transaction sleeps before its commit.
      await expect
        .poll(async () => (await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'PgSleep'")).rows[0].n, { timeout: 20_000 })
        .toBe(1);
      const after = fireMarked("after");
      // Given time to commit if nothing holds it (a step of the scenario, not a timing asserted).
      await Promise.race([after, new Promise((resolve) => setTimeout(resolve, 500))]);
      // A reader walks the list a page of one at a time, following the cursor, while the late fire has not committed.
      const walked: string[] = [];
      for (let path: string | null = "/_sandbox/fired-events?limit=1"; path !== null; ) {
        const response: Response = await call(sandbox, token, path);
        walked.push(...((await response.json()) as { externalEventPayload: { orderNumber: string } }[]).map((event) => event.externalEventPayload.orderNumber));
        const next = response.headers.get("x-next-cursor");
        path = next === null ? null : `/_sandbox/fired-events?limit=1&cursor=${next}`;
      }
      expect([(await late).status, (await after).status]).toEqual([200, 200]);
      const all = ((await (await call(sandbox, token, "/_sandbox/fired-events")).json()) as { externalEventPayload: { orderNumber: string } }[]).map(
        (event) => event.externalEventPayload.orderNumber,
      );
      expect(all).toEqual(["first", "late", "after"]);
      expect(all.slice(0, walked.length)).toEqual(walked);
    } finally {
      await client.query("DROP TRIGGER IF EXISTS late_fire ON sandbox_fired_events").catch(() => undefined);
      await client.end();
    }
  });
});
