/**
 * The sandbox's scenarios, written against `fetch` alone so that the same code runs over every
 * transport: HTTP on loopback, MSW in Node, and MSW in Chromium (bundled into a page). Each starts
 * from its own reset, and throws on the first thing that is not as the service's rules say.
 */

/** Sends a request to the sandbox under test: a path (with query) and the usual `fetch` init; the token is added. */
export type Call = (path: string, init?: RequestInit & { token?: string | null }) => Promise<Response>;

/** One scenario: a name and what it does. */
export interface Scenario {
  readonly name: string;
  run(call: Call): Promise<void>;
}

const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";
const exampleBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";

/** Throws unless `actual` and `expected` have the same JSON. */
function same(actual: unknown, expected: unknown, what: string): void {
  const [a, b] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== b) throw new Error(`${what}: expected ${b}; got ${a}`);
}

function truthy(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

const json = (body: unknown, method = "POST"): RequestInit => ({ method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

async function read<T>(response: Response, status: number, what: string): Promise<T> {
  const text = await response.text();
  same(response.status, status, `${what}: status (body ${text.slice(0, 200)})`);
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

async function reset(call: Call, body: Record<string, unknown> = { seed: "scenarios", conversations: 30 }): Promise<void> {
  await read(await call("/_sandbox/reset", json(body)), 200, "reset");
}

interface Page {
  items: { id: string; status: string; members: { id: string; role: string }[] }[];
  hasMore: boolean;
  pageIndex: number;
  totalItemCount: number;
}

/** Every scenario, in the order they run. */
export const scenarios: Scenario[] = [
  {
    name: "a search walks every page once, each conversation once",
    async run(call) {
      await reset(call);
      const ids: string[] = [];
      let pageIndex = 0;
      for (;;) {
        const page = await read<Page>(await call(`${searchPath}?pageSize=7&pageIndex=${pageIndex}`), 200, `page ${pageIndex}`);
        same(page.totalItemCount, 30, "totalItemCount");
        ids.push(...page.items.map((item) => item.id));
        if (!page.hasMore) break;
        pageIndex++;
      }
      same(ids.length, 30, "conversations walked");
      same(new Set(ids).size, 30, "distinct conversations");
    },
  },
  {
    name: "a status filter returns only that status; an invalid pageSize is a 400 naming it",
    async run(call) {
      await reset(call);
      const page = await read<Page>(await call(`${searchPath}?status=Closed&pageSize=100`), 200, "status filter");
      truthy(page.items.length > 0 && page.items.every((item) => item.status === "Closed"), "only Closed conversations");
      const problem = await read<{ errors: { path: string }[] }>(await call(`${searchPath}?pageSize=0`), 400, "pageSize=0");
      same(
        problem.errors.map((error) => error.path),
        ["query.pageSize"],
        "defect paths",
      );
      await read(await call(`${searchPath}?startToDate=2026-12-31T23:59:60Z`), 400, "a leap second");
    },
  },
  {
    name: "no token is a 401 on every operation",
    async run(call) {
      await read(await call(searchPath, { token: null }), 401, "search");
      await read(await call(`${firePath}/${exampleBot}`, { token: null }), 401, "triggers");
      await read(await call(firePath, { ...json({ conversationId: "x", externalEventId: "y" }), token: "wrong" }), 401, "fire");
    },
  },
  {
    name: "the triggers of a bot, and a 404 for an unknown bot",
    async run(call) {
      await reset(call);
      const triggers = await read<{ externalEventId: string }[]>(await call(`${firePath}/${exampleBot}`), 200, "triggers");
      truthy(
        triggers.some((trigger) => trigger.externalEventId === "order-status-changed"),
        "the example trigger is listed",
      );
      await read(await call(`${firePath}/no-such-bot`), 404, "unknown bot");
    },
  },
  {
    name: "a fire is recorded; a wrong-typed variable is the 500 naming it; an unknown trigger is a 404; nothing else is recorded",
    async run(call) {
      await reset(call);
      const page = await read<Page>(await call(`${searchPath}?agentStageId=${exampleBot}&pageSize=1`), 200, "a conversation of the example bot");
      const conversationId = page.items[0]!.id;
      await read(
        await call(firePath, json({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderTotal: 149.9 } })),
        200,
        "fire",
      );
      const wrong = await read<{ errors: { path: string }[] }>(
        await call(firePath, json({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderTotal: "149.90" } })),
        500,
        "wrong type",
      );
      same(
        wrong.errors.map((error) => error.path),
        ["$.externalEventPayload.orderTotal"],
        "the variable named",
      );
      await read(await call(firePath, json({ conversationId, externalEventId: "no-such-trigger" })), 404, "unknown trigger");
      const fired = await read<{ conversationId: string; externalEventPayload: unknown }[]>(await call("/_sandbox/fired-events"), 200, "journal");
      same(
        fired.map((event) => [event.conversationId, event.externalEventPayload]),
        [[conversationId, { orderTotal: 149.9 }]],
        "fired events",
      );
    },
  },
  {
    name: "the request journal keeps each request without its token, filtered, and a reset clears it",
    async run(call) {
      await reset(call);
      await call(`${searchPath}?status=Active`, { headers: { "X-Client-Note": "from the scenario" } });
      await call(`${firePath}/no-such-bot`);
      const all = await read<{ method: string; path: string; query: Record<string, string>; headers: Record<string, string>; status: number }[]>(
        await call("/_sandbox/requests"),
        200,
        "journal",
      );
      same(
        all.map((entry) => [entry.method, entry.path, entry.status]),
        [
          ["GET", searchPath, 200],
          ["GET", `${firePath}/no-such-bot`, 404],
        ],
        "requests",
      );
      same(all[0]!.query, { status: "Active" }, "query kept");
      truthy(
        all.every((entry) => !("x-token" in entry.headers)),
        "no token kept",
      );
      same(all[0]!.headers["x-client-note"], "from the scenario", "a header kept, its name in lower case");
      truthy(
        all.every((entry) => Object.keys(entry.headers).every((name) => name === name.toLowerCase())),
        "names in lower case",
      );
      same((await read<unknown[]>(await call("/_sandbox/requests?status=404"), 200, "filtered")).length, 1, "filter by status");
      await reset(call);
      same(await read(await call("/_sandbox/requests"), 200, "after reset"), [], "cleared by reset");
    },
  },
  {
    name: "a one-shot fault: the next search answers 503 with Retry-After, the one after is served",
    async run(call) {
      await reset(call);
      await read(await call("/_sandbox/faults", json({ operationId: "searchConversations", status: 503, retryAfter: 2 })), 201, "arm");
      const failed = await call(searchPath);
      await read(failed, 503, "the faulted search");
      same(failed.headers.get("retry-after"), "2", "Retry-After");
      await read(await call(searchPath), 200, "the next search");
    },
  },
  {
    name: "named states: empty has no conversation, bot-without-triggers a bot with none, large 10,000",
    async run(call) {
      await reset(call, { state: "empty" });
      same((await read<Page>(await call(searchPath), 200, "empty")).totalItemCount, 0, "conversations when empty");
      await reset(call, { state: "bot-without-triggers" });
      same(await read(await call(`${firePath}/${exampleBot}`), 200, "triggers"), [], "the first bot's triggers");
      await reset(call, { state: "large" });
      same((await read<Page>(await call(`${searchPath}?pageSize=1`), 200, "large")).totalItemCount, 10_000, "conversations when large");
      await read(await call("/_sandbox/reset", json({ state: "large", conversations: 5 })), 400, "a count with a state that sets it");
    },
  },
  {
    name: "a body nested past 64 levels is a 400, and the sandbox answers after",
    async run(call) {
      await read(
        await call(firePath, { method: "POST", body: `${'{"a":'.repeat(500)}1${"}".repeat(500)}`, headers: { "content-type": "application/json" } }),
        400,
        "deep body",
      );
      await read(await call(searchPath), 200, "after");
    },
  },
];
