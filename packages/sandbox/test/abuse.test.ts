import { Agent, request } from "node:http";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { OpenSandbox } from "../src/core.ts";
import { MemoryStore } from "../src/data/memory-store.ts";
import { generatedSource } from "../src/data/source.ts";
import { serveSandbox } from "../src/http/server.ts";
import { maxJsonDepth } from "../src/json.ts";
import { resolveOptions } from "../src/options.ts";
import { startSandboxServer } from "../src/sandbox.ts";
import { control, responseProblems, service } from "./support/description.ts";
import { json, sandboxForTests, token } from "./support/sandbox.ts";

const sandbox = await sandboxForTests({ conversations: 30 });
const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";

/** A JSON text nesting `levels` objects, as a ComplexObject value would. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

/**
 * Every operation of both descriptions, with a path whose parameters are filled; but the workspaces' and
 * health routes, which only a shared sandbox (on PostgreSQL) answers: `test/shared.test.ts` abuses those.
 */
const operations = [service, control].flatMap((document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId: string; requestBody?: unknown; tags?: string[] }>)
      .filter(
        ([method, operation]) => ["get", "post", "put", "delete"].includes(method) && !operation.tags?.some((tag) => tag === "Workspaces" || tag === "Health"),
      )
      .map(([method, operation]) => ({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: path.replace("{agentStageId}", "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c").replace("{conversationId}", "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c"),
        takesBody: operation.requestBody !== undefined,
      })),
  ),
);

describe("JSON nested too deeply (issue 24, point 1)", () => {
  test.each(operations.filter((operation) => operation.takesBody).map((operation) => [operation.operationId, operation] as const))(
    "%s: a body nested 6,000 levels deep is the documented 400 naming the limit, and the sandbox answers after",
    async (operationId, operation) => {
      const body =
        operationId === "fireExternalEvent"
          ? `{"conversationId":"0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c","externalEventId":"order-status-changed","externalEventPayload":{"deliveryAddress":${nested(6000)}}}`
          : nested(6000);
      const response = await sandbox.call(operation.path, { method: operation.method, body });
      expect(await responseProblems(operationId, response)).toEqual([]);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toContain(`at most ${maxJsonDepth} levels deep`);
      expect((await sandbox.call(searchPath)).status).toBe(200);
    },
  );

  test(`a payload nested ${maxJsonDepth} levels deep is within the limit and fires`, async () => {
    const body = `{"conversationId":"0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c","externalEventId":"order-status-changed","externalEventPayload":{"deliveryAddress":${nested(maxJsonDepth - 2)}}}`;
    expect((await sandbox.call(firePath, { method: "POST", body })).status).toBe(200);
    expect((await sandbox.call("/_sandbox/fired-events")).status).toBe(200);
  });
});

describe("over HTTP", () => {
  test("a 100 kB query is a 431 with a problem body naming the limit, not a reset connection; the server answers after", async () => {
    const server = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 5 });
    try {
      const url = new URL(server.url);
      const answer = await new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
        const sent = request(
          { host: url.hostname, port: url.port, path: `${searchPath}?channelId=${"x".repeat(100_000)}`, headers: { "x-token": token } },
          (response) => {
            let text = "";
            response.on("data", (chunk: Buffer) => (text += chunk.toString()));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"], body: text }));
          },
        );
        sent.on("error", reject);
        sent.end();
      });
      expect(answer.status).toBe(431);
      expect(answer.type).toBe("application/json");
      expect(JSON.parse(answer.body)).toMatchObject({ status: 431, detail: expect.stringContaining("16384 bytes") });
      expect((await fetch(`${server.url}${searchPath}`, { headers: { "x-token": token } })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("a reset never stops the other requests (issue 24, scale; issue 29, point 3)", () => {
  test("while a reset loads 100,000 conversations, searches on one kept-alive connection are answered from the old data; then the new data is in place", {
    timeout: 120_000,
  }, async () => {
    // The load's pause between chunks is held open at its first call, so the searches are sent while the reset is
    // loading and answered before it ends, on any machine: the test waits for that event, never for a time.
    let loading!: () => void, resume!: () => void;
    const loadPaused = new Promise<void>((resolve) => (loading = resolve));
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    const pause = async () => {
      loading();
      await resumed;
      await new Promise<void>((resolve) => setImmediate(resolve));
    };
    const options = resolveOptions({ conversations: 20 });
    const server = await serveSandbox(await OpenSandbox.open(options, new MemoryStore(), () => generatedSource(options, {}), { pause }), {
      host: "127.0.0.1",
      port: 0,
    });
    // One connection for every search: the server must keep it open through the reset.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = new URL(server.url);
      const search = () =>
        new Promise<{ total: number; reused: boolean }>((resolve, reject) => {
          const sent = request({ host: url.hostname, port: url.port, path: `${searchPath}?pageSize=1`, headers: { "x-token": token }, agent }, (response) => {
            let text = "";
            response.on("data", (chunk: Buffer) => (text += chunk.toString()));
            response.on("end", () => resolve({ total: (JSON.parse(text) as { totalItemCount: number }).totalItemCount, reused: sent.reusedSocket }));
          });
          sent.on("error", reject);
          sent.end();
        });
      expect(await search()).toEqual({ total: 20, reused: false });
      let resetDone = false;
      const reset = fetch(`${server.url}/_sandbox/reset`, {
        method: "POST",
        headers: { "x-token": token, "content-type": "application/json" },
        body: JSON.stringify({ conversations: 100_000 }),
      }).then(async (response) => ((resetDone = true), (await response.json()) as unknown));
      // A load that never pauses holds up every request until it ends: the reset would answer first.
      await Promise.race([
        loadPaused,
        reset.then(() => Promise.reject(new Error("the reset loaded 100,000 conversations without pausing for other requests"))),
      ]);
      // Three searches while the load is paused: each answered from the old data, whole, on the same connection.
      const answers = [await search(), await search(), await search()];
      expect(resetDone).toBe(false);
      expect(answers).toEqual(Array.from({ length: 3 }, () => ({ total: 20, reused: true })));
      resume();
      expect(await reset).toEqual({ bots: 3, conversations: 100_000 });
      expect(await search()).toEqual({ total: 100_000, reused: true });
    } finally {
      resume();
      agent.destroy();
      await server.stop();
    }
  });
});

describe("generated abuse of every route (issue 24: fast-check)", () => {
  const text = fc.string({ maxLength: 40, unit: "grapheme" });
  const body = fc.oneof(
    fc.json({ maxDepth: 6 }),
    text,
    fc.integer({ min: 1, max: 200 }).map((levels) => nested(levels)),
    fc.constant(""),
  );
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom("pageSize", "pageIndex", "status", "startFromDate", "seed", "conversationId", "externalEventId"), text),
    text,
    { maxKeys: 4 },
  );
  const contentType = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", undefined);

  test("any query string, body and content type at any route: a documented status, no 5xx but the payload 500, and the sandbox healthy after", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations), query, body, contentType, async (operation, parameters, sentBody, type) => {
        const init: RequestInit = { method: operation.method, headers: { "x-token": token, ...(type ? { "content-type": type } : {}) } };
        if (operation.method !== "GET" && operation.method !== "DELETE") init.body = sentBody;
        const response = await sandbox.fetch(`http://sandbox.test${operation.path}?${new URLSearchParams(parameters)}`, init);
        expect(await responseProblems(operation.operationId, response), `${operation.operationId} ${response.status}`).toEqual([]);
        if (response.status >= 500) expect([operation.operationId, response.status]).toEqual(["fireExternalEvent", 500]);
        const health = await sandbox.fetch(`http://sandbox.test${searchPath}?pageSize=1`, { headers: { "x-token": token } });
        expect(health.status).toBe(200);
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });

  test("a reset by the generated requests leaves fired events and requests consistent: reset clears both journals", async () => {
    await sandbox.call(firePath, json("POST", { conversationId: "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", externalEventId: "order-status-changed" }));
    expect((await sandbox.firedEvents()).length).toBeGreaterThan(0);
    await sandbox.reset();
    expect(await sandbox.firedEvents()).toEqual([]);
    expect(sandbox.requests()).toEqual([]);
  });
});
