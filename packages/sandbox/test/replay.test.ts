import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandbox, type ExchangeRecord, parseExchanges, startSandboxServer } from "../src/index.ts";
import { createSandboxHandlers } from "../src/msw.ts";

const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";

/** A recorded exchange, as `bot-conversation record` journals it. */
const recorded = (
  method: string,
  path: string,
  query: Record<string, string>,
  body: ExchangeRecord["request"]["body"],
  status: number,
  headers: [string, string][],
  answer: ExchangeRecord["response"]["body"],
): ExchangeRecord => ({
  request: { method, path, query, headers: [["Accept", "application/json"]], body },
  response: { status, headers, body: answer },
  durationMs: 12,
});

/** A recording: a search answered 503 then 200 (a retry), a fire answered with the service's own 500, and a 401 (never replayed). */
const recording: ExchangeRecord[] = [
  recorded(
    "GET",
    searchPath,
    { agentStageId: "bot-1", pageSize: "2" },
    {},
    503,
    [
      ["Retry-After", "7"],
      ["X-Service", "real"],
    ],
    {
      text: "busy",
    },
  ),
  recorded(
    "GET",
    searchPath,
    { pageSize: "2", agentStageId: "bot-1" },
    {},
    200,
    [
      ["Content-Type", "application/json"],
      ["X-Service", "real"],
    ],
    {
      json: { items: [], hasMore: false, pageIndex: 1, pageSize: 2, totalItemCount: 0, totalPageCount: 0, fromItemInclusive: 0, toItemExclusive: 0 },
    },
  ),
  recorded(
    "POST",
    firePath,
    {},
    { json: { conversationId: "c-1", externalEventId: "order-shipped", externalEventPayload: { amount: "lots" } } },
    500,
    [["Content-Type", "application/problem+json"]],
    { json: { title: "Error", status: 500, detail: "Variable amount: expected a number." } },
  ),
  recorded("GET", `${firePath}/bot-1`, {}, {}, 401, [["Content-Type", "application/json"]], { json: { title: "no" } }),
];

/** The same checks over any transport's fetch. */
async function replays(fetcher: (path: string, init?: RequestInit) => Promise<Response>): Promise<void> {
  // Query parameters in another order: the same request.
  const first = await fetcher(`${searchPath}?pageSize=2&agentStageId=bot-1`);
  expect([first.status, first.headers.get("retry-after"), first.headers.get("x-service"), await first.text()]).toEqual([503, "7", "real", "busy"]);
  const second = await fetcher(`${searchPath}?agentStageId=bot-1&pageSize=2`);
  expect([second.status, second.headers.get("x-service"), ((await second.json()) as { totalItemCount: number }).totalItemCount]).toEqual([200, "real", 0]);
  // The last recorded answer repeats.
  expect((await fetcher(`${searchPath}?agentStageId=bot-1&pageSize=2`)).status).toBe(200);
  // The fire, its body's keys in another order: the recorded 500 and its body.
  const fired = await fetcher(firePath, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ externalEventPayload: { amount: "lots" }, externalEventId: "order-shipped", conversationId: "c-1" }),
  });
  expect([fired.status, fired.headers.get("content-type"), await fired.json()]).toEqual([
    500,
    "application/problem+json",
    { title: "Error", status: 500, detail: "Variable amount: expected a number." },
  ]);
  // A fire not recorded: its body, read by the replay to look it up, is read again by the rules (a 404 naming it).
  const unrecorded = await fetcher(firePath, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ conversationId: "c-2", externalEventId: "order-shipped" }),
  });
  expect([unrecorded.status, ((await unrecorded.json()) as { detail: string }).detail]).toEqual([404, 'No conversation with conversationId "c-2".']);
  // Not recorded: the rules over the sandbox's data (its own envelope, its own default page size).
  const other = await fetcher(`${searchPath}?pageSize=3`);
  expect(other.status).toBe(200);
  expect(other.headers.get("x-service")).toBeNull();
  expect(((await other.json()) as { pageSize: number; items: unknown[] }).items).toHaveLength(3);
  // A recorded 401 is not replayed: the sandbox's token rule answers (here, an accepted token: the rules' 404 or 200).
  expect((await fetcher(`${firePath}/bot-1`)).status).not.toBe(401);
}

describe("exact replay of a recording (exchanges)", () => {
  test("createSandbox({ exchanges: path }) answers a recorded request as recorded, every other by the rules; a wrong token is the rules' 401", async () => {
    const dir = await mkdtemp(join(tmpdir(), "replay-"));
    const path = join(dir, "exchanges.ndjson");
    await writeFile(path, `${recording.map((record) => JSON.stringify(record)).join("\n")}\n`);
    const sandbox = await createSandbox({ conversations: 10, exchanges: path });
    try {
      await replays((path, init = {}) =>
        sandbox.fetch(`http://sandbox${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "X-Token": "sandbox-token" } }),
      );
      const wrong = await sandbox.fetch(`http://sandbox${searchPath}?agentStageId=bot-1&pageSize=2`, { headers: { "X-Token": "wrong" } });
      expect(wrong.status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });

  test("the server (Node's HTTP) answers a recorded request as recorded, every other by the rules", async () => {
    const server = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 10, exchanges: recording });
    try {
      await replays((path, init = {}) =>
        fetch(`${server.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "X-Token": "sandbox-token" } }),
      );
    } finally {
      await server.stop();
    }
  });

  test("a journal line that is not a recorded exchange is named, with its line", async () => {
    expect(() => parseExchanges(`${JSON.stringify(recording[0])}\n{"request":{}}\n`, "--exchanges e.ndjson")).toThrow(
      "--exchanges e.ndjson: line 2[0]: expected a recorded exchange { request: { method, path, query, headers, body }, response: { status, headers, body } }",
    );
    expect(() => parseExchanges("not json\n", "--exchanges e.ndjson")).toThrow("--exchanges e.ndjson: line 1 is not JSON");
    await expect(createSandbox({ exchanges: "/nonexistent/exchanges.ndjson" })).rejects.toThrow(
      "exchanges: cannot read /nonexistent/exchanges.ndjson (ENOENT); expected a recording's exchanges.ndjson",
    );
  });

  describe("the MSW handlers with exchanges", () => {
    const server = setupServer(...createSandboxHandlers({ conversations: 10, exchanges: recording, baseUrl: "https://bots.example.com" }));
    beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
    afterAll(() => server.close());

    test("answer a recorded request as recorded, every other by the rules", async () => {
      await replays((path, init = {}) =>
        fetch(`https://bots.example.com${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "X-Token": "sandbox-token" } }),
      );
    });
  });
});
