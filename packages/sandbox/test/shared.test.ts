/** The shared sandbox on a real PostgreSQL, in process: workspaces, their isolation, the administrator's routes, two replicas, the schema. */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadedWorkspacesLimit } from "../src/core.ts";
import { schemaVersion } from "../src/data/postgres/schema.ts";
import { createSandbox, type Fixture, type Sandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { parseMetrics, sampleOf } from "./support/prometheus.ts";
import { adminToken, call, createWorkspace, expectAnsweredAsRemoved, heldChanges, type Target, usePostgres } from "./support/shared.ts";

const postgres = usePostgres();

/** The example fixture with every conversation id given a suffix: another team's data. */
function fixtureOf(suffix: string): Fixture {
  const fixture = exampleFixture();
  return {
    ...fixture,
    conversations: fixture.conversations.map((entry) => ({ ...entry, conversation: { ...entry.conversation, id: `${entry.conversation.id}-${suffix}` } })),
  };
}

/** The search page a token sees. */
async function search(target: Target, token: string, query = ""): Promise<{ totalItemCount: number; pageIndex: number; items: { id: string }[] }> {
  const response = await call(target, token, `/api/v2/channels/conversations${query}`);
  expect(response.status).toBe(200);
  return response.json() as Promise<{ totalItemCount: number; pageIndex: number; items: { id: string }[] }>;
}

/** Every fired event a token sees. */
async function fired(target: Target, token: string): Promise<{ conversationId: string; externalEventPayload: Record<string, unknown> | null }[]> {
  const response = await call(target, token, "/_sandbox/fired-events?limit=10000");
  expect(response.status).toBe(200);
  return response.json() as Promise<{ conversationId: string; externalEventPayload: Record<string, unknown> | null }[]>;
}

/** A fire of the example bot's order-status-changed, its order number a marker, into a conversation. */
const fire = (target: Target, token: string, conversationId: string, marker: string) =>
  call(target, token, "/api/v1/runtime/simple/external/events", {
    method: "POST",
    json: { conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: marker } },
  });

describe("workspaces of a shared sandbox on PostgreSQL", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ databaseUrl: await postgres.database(), adminToken, conversations: 30 });
  });
  afterAll(() => sandbox?.close());

  test("two workspaces, each reset, filled with a fixture and fired into at once: neither sees the other's data, events, switches or faults; one's token is refused by the other's routes", async () => {
    const alpha = await createWorkspace(sandbox, { name: "alpha", seed: "alpha", conversations: 10 });
    const beta = await createWorkspace(sandbox, { name: "beta", seed: "beta", conversations: 10, switches: { pageBase: 1 } });
    expect(alpha).not.toBe(beta);

    // Each reset: its own count, its own switches.
    expect(await (await call(sandbox, alpha, "/_sandbox/reset", { method: "POST", json: { seed: "alpha-2", conversations: 7 } })).json()).toMatchObject({
      conversations: 7,
    });
    expect(await (await call(sandbox, beta, "/_sandbox/reset", { method: "POST", json: { seed: "beta-2", conversations: 9 } })).json()).toMatchObject({
      conversations: 9,
    });
    expect(await search(sandbox, alpha)).toMatchObject({ totalItemCount: 7, pageIndex: 0 });
    expect(await search(sandbox, beta)).toMatchObject({ totalItemCount: 9, pageIndex: 1 });
    // The default workspace (the --token tokens) keeps the start options' data.
    expect(await search(sandbox, "sandbox-token")).toMatchObject({ totalItemCount: 30, pageIndex: 0 });

    // Each filled with its own fixture.
    for (const [token, suffix] of [
      [alpha, "alpha"],
      [beta, "beta"],
    ] as const) {
      const loaded = await call(sandbox, token, "/_sandbox/fixture", { method: "PUT", json: fixtureOf(suffix) });
      expect(loaded.status).toBe(200);
    }
    const alphaIds = (await search(sandbox, alpha)).items.map((item) => item.id);
    const betaIds = (await search(sandbox, beta)).items.map((item) => item.id);
    expect(alphaIds.every((id) => id.endsWith("-alpha"))).toBe(true);
    expect(betaIds.every((id) => id.endsWith("-beta"))).toBe(true);

    // A fault armed in one workspace: the other's searches are untouched.
    expect(
      (await call(sandbox, alpha, "/_sandbox/faults", { method: "POST", json: { operationId: "searchConversations", status: 429, times: 3 } })).status,
    ).toBe(201);
    expect((await call(sandbox, beta, "/api/v2/channels/conversations")).status).toBe(200);
    expect((await call(sandbox, alpha, "/api/v2/channels/conversations")).status).toBe(429);
    expect((await call(sandbox, alpha, "/_sandbox/faults", { method: "DELETE" })).status).toBe(204);
    expect((await call(sandbox, alpha, "/api/v2/channels/conversations")).status).toBe(200);

    // Fired into at once; a conversation of the other workspace is not found.
    const fires = await Promise.all([
      ...Array.from({ length: 20 }, (_, index) => fire(sandbox, alpha, alphaIds[index % alphaIds.length]!, `alpha-${index}`)),
      ...Array.from({ length: 20 }, (_, index) => fire(sandbox, beta, betaIds[index % betaIds.length]!, `beta-${index}`)),
    ]);
    expect(fires.map((response) => response.status)).toEqual(Array(40).fill(200));
    expect((await fire(sandbox, alpha, betaIds[0]!, "crossing")).status).toBe(404);
    const alphaEvents = await fired(sandbox, alpha);
    const betaEvents = await fired(sandbox, beta);
    expect(alphaEvents.map((event) => event.externalEventPayload?.["orderNumber"]).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `alpha-${index}`).sort(),
    );
    expect(betaEvents.map((event) => event.externalEventPayload?.["orderNumber"]).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `beta-${index}`).sort(),
    );
    expect(await fired(sandbox, "sandbox-token")).toEqual([]);

    // A workspace's token manages no workspace; a removed workspace's token is refused everywhere.
    expect((await call(sandbox, alpha, "/_sandbox/workspaces")).status).toBe(401);
    expect((await call(sandbox, alpha, "/_sandbox/workspaces/beta", { method: "DELETE" })).status).toBe(401);
    expect((await call(sandbox, adminToken, "/_sandbox/workspaces/beta", { method: "DELETE" })).status).toBe(204);
    expect((await call(sandbox, beta, "/_sandbox/fired-events")).status).toBe(401);
    expect((await call(sandbox, beta, "/api/v2/channels/conversations")).status).toBe(401);
    expect((await search(sandbox, alpha)).totalItemCount).toBe(2);
    // A new workspace of the same name has a new token; the removed one's still reaches nothing.
    const betaAgain = await createWorkspace(sandbox, { name: "beta", conversations: 4 });
    expect((await call(sandbox, beta, "/api/v2/channels/conversations")).status).toBe(401);
    expect((await search(sandbox, betaAgain)).totalItemCount).toBe(4);
  });

  test(`more workspaces used than a replica keeps loaded (${loadedWorkspacesLimit}): each, dropped and loaded again, still answers its own data`, async () => {
    const tokens = await Promise.all(
      Array.from({ length: loadedWorkspacesLimit + 3 }, (_, index) => createWorkspace(sandbox, { name: `many-${index}`, conversations: index % 7 })),
    );
    for (const [index, token] of tokens.entries()) expect((await search(sandbox, token)).totalItemCount, `many-${index}`).toBe(index % 7);
    // The first ones were dropped as the last were loaded: asked again, they are loaded again, with their own data and events.
    for (const [index, token] of tokens.slice(0, 3).entries()) expect((await search(sandbox, token)).totalItemCount, `many-${index} again`).toBe(index % 7);
    // The metrics say so: the limit loaded (default besides), at least 3 + 3 dropped, and past 20 workspace names the label "other".
    const metrics = parseMetrics(await (await call(sandbox, adminToken, "/_sandbox/metrics")).text());
    expect(sampleOf(metrics, "sandbox_workspaces_loaded")).toBe(loadedWorkspacesLimit + 1);
    expect(sampleOf(metrics, "sandbox_workspaces_evicted_total")).toBeGreaterThanOrEqual(6);
    expect(sampleOf(metrics, "sandbox_requests_total", { operation: "searchConversations", status: "200", workspace: "other" })).toBeGreaterThan(0);
    expect(sampleOf(metrics, "sandbox_requests_total", { operation: "searchConversations", status: "200", workspace: "many-34" })).toBeUndefined();
  });

  test("the administrator's routes: the administrator token only, a clear 400 naming the field, 409 for a taken name, the default workspace kept", async () => {
    expect((await call(sandbox, "sandbox-token", "/_sandbox/workspaces")).status).toBe(401);
    const badName = await call(sandbox, adminToken, "/_sandbox/workspaces", { method: "POST", json: { name: "Not A Name" } });
    expect(badName.status).toBe(400);
    expect(((await badName.json()) as { detail: string }).detail).toContain("$.name");
    const badSwitch = await call(sandbox, adminToken, "/_sandbox/workspaces", { method: "POST", json: { name: "switchy", switches: { order: "sideways" } } });
    expect(badSwitch.status).toBe(400);
    expect(((await badSwitch.json()) as { detail: string }).detail).toContain("$.switches.order");
    const both = await call(sandbox, adminToken, "/_sandbox/workspaces", { method: "POST", json: { name: "both", seed: "x", fixture: exampleFixture() } });
    expect(both.status).toBe(400);
    expect(((await both.json()) as { detail: string }).detail).toContain("$.seed");

    // Bodies are read as every control route reads them: a body nested too deeply is the documented 400.
    const nested = await sandbox.fetch("http://127.0.0.1/_sandbox/workspaces", {
      method: "POST",
      headers: { "x-token": adminToken, "content-type": "application/json" },
      body: `${'{"a":'.repeat(6000)}1${"}".repeat(6000)}`,
    });
    expect(nested.status).toBe(400);
    expect((await (await call(sandbox, adminToken, "/_sandbox/workspaces", { method: "PUT", json: {} })).json()) as { status: number }).toMatchObject({
      status: 405,
    });

    await createWorkspace(sandbox, { name: "gamma", state: "empty" });
    const again = await call(sandbox, adminToken, "/_sandbox/workspaces", { method: "POST", json: { name: "gamma" } });
    expect(again.status).toBe(409);
    expect((await call(sandbox, adminToken, "/_sandbox/workspaces/default", { method: "DELETE" })).status).toBe(409);
    expect((await call(sandbox, adminToken, "/_sandbox/workspaces/nobody", { method: "DELETE" })).status).toBe(404);
    const names = ((await (await call(sandbox, adminToken, "/_sandbox/workspaces")).json()) as { name: string }[]).map((workspace) => workspace.name);
    expect(names).toEqual(expect.arrayContaining(["default", "gamma"]));
    expect(names).not.toContain("delta");
  });

  test("the list is paged as fired events are: at most limit a page, X-Next-Cursor and Link to the next, every workspace once, in name order; a bad limit or cursor a 400 naming it", async () => {
    for (const name of ["page-a", "page-b", "page-c", "page-d", "page-e"]) await createWorkspace(sandbox, { name, state: "empty" });
    const all = ((await (await call(sandbox, adminToken, "/_sandbox/workspaces?limit=10000")).json()) as { name: string }[]).map((workspace) => workspace.name);
    expect(all).toEqual([...all].sort());
    const walked: string[] = [];
    let path: string | undefined = "/_sandbox/workspaces?limit=2";
    let pages = 0;
    while (path !== undefined) {
      const response = await call(sandbox, adminToken, path);
      expect(response.status).toBe(200);
      const page = (await response.json()) as { name: string }[];
      expect(page.length).toBeLessThanOrEqual(2);
      walked.push(...page.map((workspace) => workspace.name));
      const cursor = response.headers.get("x-next-cursor");
      const link = response.headers.get("link");
      if (cursor === null) expect(link).toBeNull();
      else expect(link).toBe(`</_sandbox/workspaces?limit=2&cursor=${cursor}>; rel="next"`);
      path = cursor === null ? undefined : `/_sandbox/workspaces?limit=2&cursor=${cursor}`;
      pages++;
    }
    expect(walked).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));
    for (const [query, field] of [
      ["limit=0", "query.limit"],
      ["limit=10001", "query.limit"],
      ["cursor=Not_A_Name", "query.cursor"],
      ["after=x", "query.after"],
    ]) {
      const refused = await call(sandbox, adminToken, `/_sandbox/workspaces?${query}`);
      expect(refused.status, query).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail, query).toContain(field);
    }
  });
});

describe("two replicas in process on one database", () => {
  let first: Sandbox;
  let second: Sandbox;
  beforeAll(async () => {
    const databaseUrl = await postgres.database();
    first = await createSandbox({ databaseUrl, adminToken, conversations: 20 });
    second = await createSandbox({ databaseUrl, adminToken, conversations: 20 });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  /**
   * Asks until `ready` holds: the wait for another replica's change (never a fixed sleep, never a
   * bound on its speed, which `pnpm bench` measures: "Shared sandbox on PostgreSQL"). The 20 s guard
   * only turns a change that never comes into a failure instead of a hang.
   */
  async function seen(ready: () => Promise<boolean>): Promise<boolean> {
    const deadline = performance.now() + 20_000;
    while (performance.now() < deadline) {
      if (await ready()) return true;
      // The notification arrives on a socket: the event loop's I/O runs before the next question.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return ready();
  }

  test("a workspace made on one is served by the other; a fire on one is listed by the other; a reset and a fault on one are seen by the other", async () => {
    const token = await createWorkspace(first, { name: "shared", fixture: fixtureOf("shared") });
    const [conversation] = (await search(second, token)).items;
    expect((await fire(first, token, conversation!.id, "from-first")).status).toBe(200);
    expect((await fired(second, token)).map((event) => event.externalEventPayload?.["orderNumber"])).toEqual(["from-first"]);

    expect((await call(first, token, "/_sandbox/reset", { method: "POST", json: { seed: "after", conversations: 5 } })).status).toBe(200);
    expect(await seen(async () => (await search(second, token)).totalItemCount === 5)).toBe(true);
    expect(await fired(second, token)).toEqual([]);

    expect(
      (
        await call(first, token, "/_sandbox/faults", {
          method: "POST",
          json: { operationId: "listExternalEventTriggers", status: 503, retryAfter: 2, times: 1 },
        })
      ).status,
    ).toBe(201);
    const trigger = () => call(second, token, "/api/v1/runtime/simple/external/events/missing-bot");
    let faulted: Response | undefined;
    expect(
      await seen(async () => {
        const answer = await trigger();
        if (answer.status === 503) faulted = answer;
        return faulted !== undefined;
      }),
    ).toBe(true);
    expect(faulted?.headers.get("retry-after")).toBe("2");
    // Used once, by either replica: gone for both.
    expect((await call(first, token, "/api/v1/runtime/simple/external/events/missing-bot")).status).toBe(404);

    // A switch changed on one: answered from the new value by the other; the data stays.
    const changed = await call(first, token, "/_sandbox/switches", { method: "PUT", json: { pageBase: 1 } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ pageBase: 1, defaultPageSize: 20, order: "startedOn-desc" });
    expect(await search(first, token)).toMatchObject({ pageIndex: 1, totalItemCount: 5 });
    expect(await seen(async () => (await search(second, token)).pageIndex === 1)).toBe(true);
    expect(await (await call(second, token, "/_sandbox/switches")).json()).toMatchObject({ pageBase: 1 });
    const wrong = await call(second, token, "/_sandbox/switches", { method: "PUT", json: { pageBase: 2 } });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { detail: string }).detail).toContain("$.pageBase");
    // The default workspace's switches are its own too.
    expect(await (await call(first, "sandbox-token", "/_sandbox/switches")).json()).toMatchObject({ pageBase: 0 });
  });

  test("fires sent at once (one statement, their columns as arrays) are each listed by the other replica with its payload exactly as sent", async () => {
    const token = await createWorkspace(first, { name: "arrays", fixture: fixtureOf("arrays") });
    const conversations = (await search(second, token)).items;
    // Texts a PostgreSQL array literal must quote or escape, and others it must leave alone.
    const markers = ['quote " inside', "back\\slash", "{brace}, comma", "NULL", "", "  spaced  ", "Ünïcode ✓ 日本語 😀", "line\nbreak", '{"a":[1,2]}'];
    const sent = markers.map((marker, index) => ({ conversationId: conversations[index % conversations.length]!.id, marker }));
    const answers = await Promise.all(sent.map(({ conversationId, marker }) => fire(first, token, conversationId, marker)));
    expect(answers.map((answer) => answer.status)).toEqual(sent.map(() => 200));
    const listed = (await fired(second, token)).map((event) => ({ conversationId: event.conversationId, marker: event.externalEventPayload?.["orderNumber"] }));
    const order = (a: { marker: unknown }, b: { marker: unknown }) => String(a.marker).localeCompare(String(b.marker));
    expect(listed.sort(order)).toEqual([...sent].sort(order));
  });

  test("a fire checked against data another replica has replaced is refused with 503 and kept nowhere", async () => {
    const token = await createWorkspace(first, { name: "racing", fixture: fixtureOf("racing") });
    const [conversation] = (await search(second, token)).items;
    // The second replica has loaded the workspace; the data is replaced behind its back (no NOTIFY: it never hears of it), and it fires.
    const client = new pg.Client({ connectionString: first.options.databaseUrl! });
    await client.connect();
    try {
      await client.query("UPDATE sandbox_workspaces SET generation = generation + 1 WHERE name = 'racing'");
    } finally {
      await client.end();
    }
    const answer = await fire(second, token, conversation!.id, "stale");
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("0");
    expect(((await answer.json()) as { detail: string }).detail).toMatch(/replaced while this fire was checked; nothing was kept/);
    expect(await fired(first, token)).toEqual([]);
  });
});

describe("a workspace's name reused across replicas", () => {
  let first: Sandbox;
  let second: Sandbox;
  beforeAll(async () => {
    const databaseUrl = await postgres.database();
    first = await createSandbox({ databaseUrl, adminToken });
    second = await createSandbox({ databaseUrl, adminToken });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  test("requests held open on one replica while the other removes their workspace and creates the name again change nothing in the new one", async () => {
    const fixture = fixtureOf("reused");
    const removed = await createWorkspace(first, { name: "reused", fixture });
    // Loaded on the second replica, where the requests are then held open.
    const [conversation] = (await search(second, removed)).items;
    const held = heldChanges(second, removed, conversation!.id);
    await Promise.all(held.map((request) => request.reading));
    expect((await call(first, adminToken, "/_sandbox/workspaces/reused", { method: "DELETE" })).status).toBe(204);
    const created = await createWorkspace(first, { name: "reused", fixture });
    expect((await fire(first, created, conversation!.id, "new-1")).status).toBe(200);
    for (const request of held) request.finish();
    const answers = await Promise.all(held.map((request) => request.answer));

    for (const replica of [first, second]) {
      expect((await fired(replica, created)).map((event) => event.externalEventPayload?.["orderNumber"])).toEqual(["new-1"]);
      expect(await search(replica, created)).toMatchObject({ totalItemCount: fixture.conversations.length, pageIndex: 0 });
      expect(await (await call(replica, created, "/_sandbox/switches")).json()).toMatchObject({ pageBase: 0 });
    }
    await expectAnsweredAsRemoved(answers, second, removed);
  });
});

describe("the schema", () => {
  test("a database of a newer schema is refused in one line naming both versions, without the password", async () => {
    const databaseUrl = await postgres.database();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("CREATE TABLE sandbox_schema (id integer PRIMARY KEY, version integer NOT NULL)");
      await client.query("INSERT INTO sandbox_schema VALUES (1, $1)", [schemaVersion + 1]);
    } finally {
      await client.end();
    }
    const refusal = await createSandbox({ databaseUrl }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refusal?.message).toContain(`schema version ${schemaVersion + 1}, newer than this sandbox's ${schemaVersion}`);
    expect(refusal?.message).not.toContain("\n");
    expect(refusal?.message).not.toContain("test-password");
  });

  test("a new database is given the schema, and a second start on it keeps its workspaces", async () => {
    const databaseUrl = await postgres.database();
    const first = await createSandbox({ databaseUrl, adminToken });
    const token = await createWorkspace(first, { name: "kept", conversations: 3 });
    await first.close();
    const again = await createSandbox({ databaseUrl, adminToken });
    try {
      expect((await search(again, token)).totalItemCount).toBe(3);
    } finally {
      await again.close();
    }
  });

  test("a database of schema version 1 is migrated: its fired events are kept, listed before the new ones, and a cursor of version 1 reads on", async () => {
    const databaseUrl = await postgres.database();
    const first = await createSandbox({ databaseUrl, adminToken });
    const token = await createWorkspace(first, { name: "migrated", conversations: 3 });
    const conversation = (await search(first, token)).items[0]!;
    for (const marker of ["old-1", "old-2"]) expect((await fire(first, token, conversation.id, marker)).status).toBe(200);
    const cursor = (await call(first, token, "/_sandbox/fired-events?limit=1")).headers.get("x-next-cursor");
    await first.close();
    // The database as version 1 left it: no transaction column, the index by sequence, no creation numbers.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`DROP INDEX sandbox_fired_events_by_workspace; ALTER TABLE sandbox_fired_events DROP COLUMN xid; ALTER TABLE sandbox_workspaces DROP COLUMN incarnation;
        CREATE INDEX sandbox_fired_events_by_workspace ON sandbox_fired_events (workspace, sequence); UPDATE sandbox_schema SET version = 1`);
    } finally {
      await client.end();
    }
    const again = await createSandbox({ databaseUrl, adminToken });
    try {
      expect((await fire(again, token, conversation.id, "new")).status).toBe(200);
      expect((await fired(again, token)).map((event) => event.externalEventPayload?.orderNumber)).toEqual(["old-1", "old-2", "new"]);
      const rest = await call(again, token, `/_sandbox/fired-events?cursor=${cursor}`);
      expect(((await rest.json()) as { externalEventPayload: { orderNumber: string } }[]).map((event) => event.externalEventPayload.orderNumber)).toEqual([
        "old-2",
        "new",
      ]);
    } finally {
      await again.close();
    }
  });

  test("options: the administrator token is never an accepted token; a database URL is never echoed", async () => {
    await expect(createSandbox({ databaseUrl: "postgres://u:p@127.0.0.1:1/x", adminToken: "sandbox-token" })).rejects.toThrow(/adminToken: /);
    await expect(createSandbox({ databaseUrl: "postgres://u:p@127.0.0.1:1/x", data: "x.db" })).rejects.toThrow(/not both/);
    const refused = await createSandbox({ databaseUrl: "mysql://user:hunter2@host/db" }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toMatch(/^databaseUrl: expected a PostgreSQL URL/);
    expect(refused?.message).not.toContain("hunter2");
  });
});
