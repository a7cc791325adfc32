/**
 * The contract of the stores (issue 38): written-out cases, each run through the one app against every store
 * it applies to, on real parts — in memory, a real `--data` SQLite file, a real PostgreSQL — as Hono's
 * `common.case.test.ts` runs one suite against every router. A fault case runs against each store where the
 * fault can happen: a commit that fails (the file on a full disk, PostgreSQL refusing at commit), a database
 * that stalls (PostgreSQL SIGSTOPped), a file that goes away (the `--data` file removed).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { createSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { adminToken, call, createWorkspace, expectAnsweredAsRemoved, heldChanges, type Target, usePostgres } from "./support/shared.ts";

const postgres = usePostgres();
const scratch = mkdtempSync(join(tmpdir(), "sandbox-stores-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const token = "sandbox-token";
const firePath = "/api/v1/runtime/simple/external/events";
const { conversations } = exampleFixture();
const conversationId = conversations[0]!.conversation.id;

/** A sandbox opened over a store, and what that store can be made to do. */
interface Opened {
  readonly target: Target;
  /** Closes the sandbox (and its store). */
  close(): Promise<void>;
  /** Closes it and opens the same store again: a store kept beyond the process. */
  readonly reopen?: () => Promise<Opened>;
}

/** A store under test: how a sandbox is opened over a new one, and the faults it can meet for real. */
interface StoreUnderTest {
  readonly name: string;
  /** Whether it keeps what it holds beyond the process (`reopen` serves it again). */
  readonly kept: boolean;
  /** A sandbox over a new, empty store, its default workspace filled with the example fixture. */
  open(): Promise<Opened>;
  /** A sandbox over a new store whose commits fail once a few fires are kept (a full disk, a database refusing the commit). */
  readonly failingCommits?: () => Promise<Opened>;
  /** Stalls the store's server (every process stopped) until `resume`. */
  readonly stall?: (opened: Opened) => { resume(): void };
  /** Takes the store away from under the sandbox (the `--data` file removed). */
  readonly takeAway?: (opened: Opened) => void;
}

let files = 0;
const fixture = exampleFixture();

const stores: StoreUnderTest[] = [
  {
    name: "in memory",
    kept: false,
    open: async () => {
      const sandbox = await createSandbox({ adminToken, fixture });
      return { target: sandbox, close: () => sandbox.close() };
    },
  },
  {
    name: "a --data SQLite file",
    kept: true,
    open: () => {
      const path = join(scratch, `store-${++files}.db`);
      const open = async (): Promise<Opened & { path: string }> => {
        const sandbox = await createSandbox({ adminToken, fixture, data: path });
        return { target: sandbox, path, close: () => sandbox.close(), reopen: async () => (await sandbox.close(), open()) };
      };
      return open();
    },
    failingCommits: () => startOnLimitedFile(join(scratch, `full-${++files}.db`)),
    takeAway: (opened) => rmSync((opened as Opened & { path: string }).path),
  },
  {
    name: "PostgreSQL",
    kept: true,
    open: async () => {
      const databaseUrl = await postgres.database();
      const open = async (): Promise<Opened> => {
        const sandbox = await createSandbox({ adminToken, fixture, databaseUrl });
        return { target: sandbox, close: () => sandbox.close(), reopen: async () => (await sandbox.close(), open()) };
      };
      return open();
    },
    failingCommits: async () => {
      const databaseUrl = await postgres.database();
      const sandbox = await createSandbox({ adminToken, fixture, databaseUrl });
      // A real refusal at COMMIT: a deferred constraint trigger, as a quota the database enforces when the transaction ends.
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`
        CREATE FUNCTION test_quota() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF (SELECT count(*) FROM sandbox_fired_events) > 5 THEN RAISE EXCEPTION 'the test quota of 5 fired events is reached'; END IF;
          RETURN NULL;
        END $$;
        CREATE CONSTRAINT TRIGGER test_quota AFTER INSERT ON sandbox_fired_events DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_quota();
      `);
      await client.end();
      return { target: sandbox, close: () => sandbox.close() };
    },
    stall: () => {
      postgres.server().pause();
      return { resume: () => postgres.server().resume() };
    },
  },
];

/**
 * A sandbox process on a `--data` file that may grow to 2 MiB at most (`ulimit -f`, on the sandbox alone): past it a
 * write fails with EFBIG, as on a full disk.
 */
async function startOnLimitedFile(path: string): Promise<Opened> {
  const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
  const fixtureFile = join(scratch, `fixture-${files}.json`);
  writeFileSync(fixtureFile, JSON.stringify(fixture));
  const child = spawn("sh", ["-c", 'ulimit -f 4096 && exec "$@"', "sh", process.execPath, main, "--port", "0", "--data", path, "--fixture", fixtureFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  return { target: line.replace("Sandbox ready at ", ""), close };
}

/** A fire into the example conversation, its order number a marker (padded, to fill a store faster). */
const fire = (target: Target, as: string, marker: string, padding = "") =>
  call(target, as, firePath, {
    method: "POST",
    json: { conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: `${marker}${padding}` } },
  });

/** The markers of the fired events a token sees, in order. */
async function markers(target: Target, as: string, query = "?limit=10000"): Promise<string[]> {
  const response = await call(target, as, `/_sandbox/fired-events${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { externalEventPayload: { orderNumber: string } }[]).map((event) =>
    event.externalEventPayload.orderNumber.slice(0, 40).trim(),
  );
}

/** The number of conversations a token's search sees. */
async function total(target: Target, as: string): Promise<number> {
  const response = await call(target, as, "/api/v2/channels/conversations");
  expect(response.status).toBe(200);
  return ((await response.json()) as { totalItemCount: number }).totalItemCount;
}

/**
 * A workspace's name reused while requests to the removed one are still under way (issue 52): a fire, a reset, a
 * switches change and a fault, each held open with half its body sent, across the removal of `reused` and a new
 * creation of that name (which is fired into meanwhile). Each is answered as a request to the removed workspace is
 * (its token's 401); the new workspace has its own data, switches, no fault and only its own fired events, and its
 * fires go on being kept. Resolves to the new workspace's token.
 */
async function lateRequests(target: Exclude<Target, string>): Promise<string> {
  const removed = await createWorkspace(target, { name: "reused", fixture });
  // Loaded in the process before the requests are held.
  expect((await fire(target, removed, "removed-1")).status).toBe(200);
  const held = heldChanges(target, removed, conversationId);
  await Promise.all(held.map((request) => request.reading));
  expect((await call(target, adminToken, "/_sandbox/workspaces/reused", { method: "DELETE" })).status).toBe(204);
  const created = await createWorkspace(target, { name: "reused", fixture });
  expect((await fire(target, created, "new-1")).status).toBe(200);
  for (const request of held) request.finish();
  const answers = await Promise.all(held.map((request) => request.answer));
  await expectUntouched(target, created, ["new-1"]);
  // Its fires go on being kept, numbered on from its own (a late fire took no number of theirs).
  for (const marker of ["new-2", "new-3"]) expect((await fire(target, created, marker)).status).toBe(200);
  await expectUntouched(target, created, ["new-1", "new-2", "new-3"]);
  // Each late one answered as a request with the removed workspace's token is now.
  await expectAnsweredAsRemoved(answers, target, removed);
  return created;
}

/** The workspace `reused` as created by `lateRequests`: its fixture, its switches, no fault armed, and these fires alone. */
async function expectUntouched(target: Target, as: string, fired: string[]): Promise<void> {
  expect(await markers(target, as)).toEqual(fired);
  expect(await total(target, as)).toBe(fixture.conversations.length);
  expect(await (await call(target, as, "/_sandbox/switches")).json()).toMatchObject({ pageBase: 0 });
  expect((await call(target, as, "/api/v2/channels/conversations")).status).toBe(200);
}

/** A case of the contract: what every store must do, through the one app. */
type Case = readonly [title: string, run: (opened: Opened) => Promise<void>];

const cases: Case[] = [
  [
    "health and readiness answer without a token",
    async ({ target }) => {
      expect(await (await call(target, "", "/_sandbox/health")).json()).toEqual({ status: "ok" });
      expect(await (await call(target, "", "/_sandbox/ready")).json()).toEqual({ status: "ready" });
    },
  ],
  [
    "fired events are kept in order, read a page at a time, filtered, and cleared (their numbers go on)",
    async ({ target }) => {
      for (const marker of ["a", "b", "c"]) expect((await fire(target, token, marker)).status).toBe(200);
      expect(await markers(target, token)).toEqual(["a", "b", "c"]);
      const first = await call(target, token, "/_sandbox/fired-events?limit=2");
      const cursor = first.headers.get("x-next-cursor");
      expect(cursor).toMatch(/^\d+$/);
      expect(await markers(target, token, `?limit=2&cursor=${cursor}`)).toEqual(["c"]);
      expect(await markers(target, token, "?externalEventId=another-event")).toEqual([]);
      expect((await call(target, token, "/_sandbox/fired-events", { method: "DELETE" })).status).toBe(204);
      expect(await markers(target, token)).toEqual([]);
      expect((await fire(target, token, "d")).status).toBe(200);
      // A cursor given before the clear still reads on from where it was.
      expect(await markers(target, token, `?cursor=${cursor}`)).toEqual(["d"]);
    },
  ],
  [
    "a reset keeps the new data and forgets the fired events",
    async ({ target }) => {
      expect((await fire(target, token, "before")).status).toBe(200);
      const reset = await call(target, token, "/_sandbox/reset", { method: "POST", json: { seed: "contract", conversations: 7 } });
      expect(await reset.json()).toMatchObject({ conversations: 7 });
      expect(await total(target, token)).toBe(7);
      expect(await markers(target, token)).toEqual([]);
    },
  ],
  [
    "workspaces need the administrator token, and each is its own: data, switches, faults and fired events",
    async ({ target }) => {
      expect((await call(target, token, "/_sandbox/workspaces", { method: "POST", json: { name: "alpha" } })).status).toBe(401);
      const alpha = await createWorkspace(target, { name: "alpha", fixture, switches: { pageBase: 1 } });
      expect((await call(target, adminToken, "/_sandbox/workspaces", { method: "POST", json: { name: "alpha" } })).status).toBe(409);
      const listed = (await (await call(target, adminToken, "/_sandbox/workspaces")).json()) as { name: string }[];
      expect(listed.map((workspace) => workspace.name)).toEqual(["alpha", "default"]);

      expect((await fire(target, alpha, "alpha-1")).status).toBe(200);
      expect(await markers(target, alpha)).toEqual(["alpha-1"]);
      expect(await markers(target, token)).toEqual([]);
      expect(await (await call(target, alpha, "/_sandbox/switches")).json()).toMatchObject({ pageBase: 1 });
      expect(await (await call(target, token, "/_sandbox/switches")).json()).toMatchObject({ pageBase: 0 });
      expect((await call(target, alpha, "/_sandbox/switches", { method: "PUT", json: { pageBase: 0, triggerList: "single" } })).status).toBe(200);
      expect(await (await call(target, alpha, "/_sandbox/switches")).json()).toMatchObject({ pageBase: 0, triggerList: "single" });
      expect(await (await call(target, token, "/_sandbox/switches")).json()).toMatchObject({ triggerList: "array" });
      expect((await call(target, alpha, "/_sandbox/faults", { method: "POST", json: { operationId: "searchConversations", status: 429 } })).status).toBe(201);
      expect((await call(target, token, "/api/v2/channels/conversations")).status).toBe(200);
      expect((await call(target, alpha, "/api/v2/channels/conversations")).status).toBe(429);

      expect((await call(target, adminToken, "/_sandbox/workspaces/default", { method: "DELETE" })).status).toBe(409);
      expect((await call(target, adminToken, "/_sandbox/workspaces/alpha", { method: "DELETE" })).status).toBe(204);
      expect((await call(target, alpha, "/_sandbox/fired-events")).status).toBe(401);
      // A new workspace of the same name starts empty, behind a new token.
      const again = await createWorkspace(target, { name: "alpha", conversations: 3 });
      expect(await total(target, again)).toBe(3);
      expect(await markers(target, again)).toEqual([]);
    },
  ],
  [
    "a request held open across its workspace's removal and a new creation of the name changes nothing in the new one, and is answered as the removed one's",
    async ({ target }) => {
      await lateRequests(target as Exclude<Target, string>);
    },
  ],
];

/** Cases of a store kept beyond the process: what was acknowledged is there after a restart. */
const keptCases: Case[] = [
  [
    "after a restart, every workspace is there with its token, data, switches and fired events",
    async (opened) => {
      const alpha = await createWorkspace(opened.target, { name: "alpha", conversations: 4, switches: { pageBase: 1 } });
      expect((await call(opened.target, alpha, "/_sandbox/fixture", { method: "PUT", json: fixture })).status).toBe(200);
      expect((await fire(opened.target, alpha, "kept-alpha")).status).toBe(200);
      expect((await fire(opened.target, token, "kept-default")).status).toBe(200);
      const again = await opened.reopen!();
      try {
        expect(await markers(again.target, alpha)).toEqual(["kept-alpha"]);
        expect(await markers(again.target, token)).toEqual(["kept-default"]);
        expect(await total(again.target, alpha)).toBe(fixture.conversations.length);
        expect(await (await call(again.target, alpha, "/_sandbox/switches")).json()).toMatchObject({ pageBase: 1 });
      } finally {
        await again.close();
      }
    },
  ],
  [
    "after a restart, a workspace whose name was reused under requests still open is as they left it: its own data, switches and fires",
    async (opened) => {
      const created = await lateRequests(opened.target as Exclude<Target, string>);
      const again = await opened.reopen!();
      try {
        await expectUntouched(again.target, created, ["new-1", "new-2", "new-3"]);
        expect((await fire(again.target, created, "new-4")).status).toBe(200);
        expect(await markers(again.target, created)).toEqual(["new-1", "new-2", "new-3", "new-4"]);
      } finally {
        await again.close();
      }
    },
  ],
];

describe.each(stores)("the store contract on $name", (store) => {
  const runCase = (run: Case[1]) => async () => {
    const opened = await store.open();
    try {
      await run(opened);
    } finally {
      await opened.close();
    }
  };
  for (const [title, run] of cases) test(title, runCase(run));
  if (store.kept) for (const [title, run] of keptCases) test(title, async () => run(await store.open()));
});

describe.each(stores.filter((store) => store.failingCommits))("a commit that fails, on $name", (store) => {
  test("a fire whose commit fails is answered 503 and not kept; every acknowledged fire is", { timeout: 120_000 }, async () => {
    const opened = await store.failingCommits!();
    try {
      const padding = " ".repeat(100_000);
      const acknowledged: string[] = [];
      let refused: Response | undefined;
      for (let index = 0; refused === undefined && index < 200; index++) {
        const response = await fire(opened.target, token, `fire-${index}`, padding);
        if (response.status === 200) acknowledged.push(`fire-${index}`);
        else refused = response;
      }
      expect(refused?.status).toBe(503);
      expect(((await refused!.json()) as { detail: string }).detail).toMatch(/could not keep the event|not kept|could not be/);
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(await markers(opened.target, token)).toEqual(acknowledged);
    } finally {
      await opened.close();
    }
  });
});

describe.each(stores.filter((store) => store.stall))("a store that stalls, on $name", (store) => {
  test("a fire and readiness are answered 503 within a bound, not held for the stall; then all goes on", { timeout: 120_000 }, async () => {
    const opened = await store.open();
    try {
      expect((await fire(opened.target, token, "before")).status).toBe(200);
      const stalled = store.stall!(opened);
      let answers: Response[];
      try {
        // A guard against a request held for the whole stall (a hang), not a timing.
        const guard = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("held for the stall")), 25_000).unref());
        answers = await Promise.race([Promise.all([fire(opened.target, token, "stalled"), call(opened.target, "", "/_sandbox/ready")]), guard]);
      } finally {
        stalled.resume();
      }
      expect(answers.map((response) => response.status)).toEqual([503, 503]);
      await expect.poll(async () => (await call(opened.target, "", "/_sandbox/ready")).status, { timeout: 30_000 }).toBe(200);
      expect((await fire(opened.target, token, "after")).status).toBe(200);
      expect(await markers(opened.target, token)).toEqual(["before", "after"]);
    } finally {
      await opened.close();
    }
  });
});

describe.each(stores.filter((store) => store.takeAway))("a store that goes away, on $name", (store) => {
  test("nothing is acknowledged once it is gone, and the sandbox is no longer ready", async () => {
    const opened = await store.open();
    try {
      expect((await fire(opened.target, token, "before")).status).toBe(200);
      store.takeAway!(opened);
      expect((await fire(opened.target, token, "after")).status).toBe(503);
      expect((await call(opened.target, "", "/_sandbox/ready")).status).toBe(503);
      expect((await call(opened.target, adminToken, "/_sandbox/workspaces", { method: "POST", json: { name: "late" } })).status).toBe(503);
    } finally {
      await opened.close();
    }
  });
});
