/** The kit against a workspace of a shared sandbox: two replicas on one real PostgreSQL, behind a round-robin balancer. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startSandboxServer, type RunningSandbox } from "@bot-conversation/sandbox";
import { startPostgres, type TestPostgres } from "@bot-conversation/test-support/postgres";
import { startRoundRobin } from "@bot-conversation/test-support/round-robin";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import type { LoopbackServer } from "@bot-conversation/test-support/loopback";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const adminToken = "admin-token-of-the-kit-test-91c2";

describe("bot-conversation check against a workspace of a replicated sandbox", () => {
  let postgres: TestPostgres;
  let replicas: RunningSandbox[] = [];
  let balancer: LoopbackServer;
  beforeAll(async () => {
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase("kit");
    replicas = [
      await startSandboxServer({ host: "127.0.0.1", port: 0, databaseUrl, adminToken }),
      await startSandboxServer({ host: "127.0.0.1", port: 0, databaseUrl, adminToken }),
    ];
    balancer = await startRoundRobin(replicas.map((replica) => replica.url));
  }, heavyTestTimeoutMs);
  afterAll(async () => {
    await balancer?.close();
    for (const replica of replicas) await replica.stop();
    await postgres?.dispose();
  }, heavyTestTimeoutMs);

  it("exits 0 with every check held, its requests spread over both replicas, and never shows the workspace's token", async () => {
    const created = await fetch(`${balancer.url}/_sandbox/workspaces`, {
      method: "POST",
      headers: { "x-token": adminToken, "content-type": "application/json" },
      body: JSON.stringify({ name: "kit", seed: "kit", conversations: 40 }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    const result = await run(process.execPath, [cli, "check", "--base-url", balancer.url, "--token", token, "--seed", "4", "--rate", "0"], { env: { ...process.env, BOT_CONVERSATION_TOKEN: "" } })
      .then(({ stdout }) => ({ code: 0, stdout }), (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }));
    expect(result.stdout).toContain("Result: every check that ran held");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(token);
    // Both replicas served the kit's requests for the workspace.
    for (const replica of replicas) expect(await requestsOf(replica.url, token)).toBeGreaterThan(0);
  }, heavyTestTimeoutMs);
});

/** How many requests of the workspace a replica received. */
async function requestsOf(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/_sandbox/requests`, { headers: { "x-token": token } });
  return ((await response.json()) as unknown[]).length;
}
