import { request } from "node:http";
import { describe, expect, test } from "vitest";
import { createSandbox, startSandboxServer } from "../src/index.ts";
import { json, sandboxForTests } from "./support/sandbox.ts";

const sandbox = await sandboxForTests({ conversations: 20 });
const firePath = "/api/v1/runtime/simple/external/events";

describe("rough edges (issue 24)", () => {
  test("createSandbox refuses a misspelt option with a TypeError naming it", async () => {
    await expect(createSandbox({ pagebase: 1 } as never)).rejects.toThrow(/^pagebase: not an option of the sandbox; expected one of .*pageBase/);
    await expect(createSandbox({ conversation: 5 } as never)).rejects.toThrow(/^conversation: not an option of the sandbox; expected one of .*conversations/);
  });

  test("POST /_sandbox/reset with no body at all (no Content-Type, no Content-Length, as curl -X POST sends it) resets", async () => {
    const server = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 7 });
    try {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${server.url}/_sandbox/reset`);
        const sent = request(
          { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "x-token": "sandbox-token" } },
          (response) => {
            let text = "";
            response.on("data", (chunk: Buffer) => (text += chunk.toString()));
            response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
          },
        );
        sent.on("error", reject);
        sent.end();
      });
      expect({ status, body: JSON.parse(body) as unknown }).toEqual({ status: 200, body: { bots: 3, conversations: 7 } });
    } finally {
      await server.stop();
    }
  });

  test("DELETE /_sandbox/fired-events clears the journal alone; the data stays", async () => {
    const [conversation] = ((await (await sandbox.call("/api/v2/channels/conversations?pageSize=1")).json()) as { items: { id: string }[] }).items;
    expect((await sandbox.call(firePath, json("POST", { conversationId: conversation!.id, externalEventId: "order-status-changed" }))).status).toBe(200);
    expect(((await (await sandbox.call("/_sandbox/fired-events")).json()) as unknown[]).length).toBeGreaterThan(0);
    expect((await sandbox.call("/_sandbox/fired-events", { method: "DELETE" })).status).toBe(204);
    expect(await (await sandbox.call("/_sandbox/fired-events")).json()).toEqual([]);
    expect(((await (await sandbox.call("/api/v2/channels/conversations")).json()) as { totalItemCount: number }).totalItemCount).toBe(20);
  });

  test("a 20-digit pageSize is called too large, not 'not an integer'", async () => {
    const response = await sandbox.call("/api/v2/channels/conversations?pageSize=12345678901234567890");
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as { errors: { path: string; message: string }[] };
    expect(errors).toEqual([{ path: "query.pageSize", message: `expected an integer from 1 to ${Number.MAX_SAFE_INTEGER}; got "12345678901234567890"` }]);
  });

  test("the trigger list refuses an unknown query parameter as the search does, naming it", async () => {
    const bots = (await (await sandbox.call("/_sandbox/bots")).json()) as { agentStageId: string }[];
    const response = await sandbox.call(`/api/v1/runtime/simple/external/events/${bots[0]!.agentStageId}?verbose=1`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      { path: "query.verbose", message: "is not a parameter of this operation; it takes no query parameters" },
    ]);
  });

  test("with --unknown-parameters ignore, the trigger list ignores it, as the search does", async () => {
    const lenient = await createSandbox({ conversations: 3, unknownParameters: "ignore" });
    try {
      const bots = (await (await lenient.fetch("http://sandbox.test/_sandbox/bots", { headers: { "x-token": "sandbox-token" } })).json()) as {
        agentStageId: string;
      }[];
      const response = await lenient.fetch(`http://sandbox.test/api/v1/runtime/simple/external/events/${bots[0]!.agentStageId}?verbose=1`, {
        headers: { "x-token": "sandbox-token" },
      });
      expect(response.status).toBe(200);
    } finally {
      await lenient.close();
    }
  });

  test.each([null, [1, 2]])("a variable value %j gets the seed's 500 naming the variable, like a wrong string", async (value) => {
    const [conversation] = ((await (await sandbox.call("/api/v2/channels/conversations?pageSize=1")).json()) as { items: { id: string }[] }).items;
    const response = await sandbox.call(
      firePath,
      json("POST", { conversationId: conversation!.id, externalEventId: "order-status-changed", externalEventPayload: { orderTotal: value } }),
    );
    expect(response.status).toBe(500);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      { path: "$.externalEventPayload.orderTotal", message: `orderTotal: expected Number; got ${JSON.stringify(value)}` },
    ]);
  });

  test("a fire 400 that sends conversationId reports that variant's defects only", async () => {
    const response = await sandbox.call(firePath, json("POST", { conversationId: "c-1", externalEventId: 7 }));
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as { errors: { path: string }[] };
    expect(errors.map((error) => error.path)).toEqual(["$.externalEventId"]);
  });
});
