/** The kit against a workspace of a shared sandbox: two replicas on one real PostgreSQL, behind a round-robin balancer. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type RunningSandbox, startSandboxServer } from "@bot-conversation/sandbox";
import type { LoopbackServer } from "@bot-conversation/test-support/loopback";
import { startPostgres, type TestPostgres } from "@bot-conversation/test-support/postgres";
import { startRoundRobin } from "@bot-conversation/test-support/round-robin";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
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

  it(
    "exits 0 with every check held, its requests spread over both replicas, and never shows the workspace's token",
    async () => {
      const created = await fetch(`${balancer.url}/_sandbox/workspaces`, {
        method: "POST",
        headers: { "x-token": adminToken, "content-type": "application/json" },
        body: JSON.stringify({ name: "kit", seed: "kit", conversations: 40 }),
      });
      expect(created.status).toBe(201);
      const { token } = (await created.json()) as { token: string };
      const result = await run(process.execPath, [cli, "check", "--base-url", balancer.url, "--token", token, "--seed", "4", "--rate", "0"], {
        env: { ...process.env, BOT_CONVERSATION_TOKEN: "" },
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      expect(result.stdout).toContain("Result: every check that ran held");
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain(token);
      // Both replicas served the kit's requests for the workspace.
      for (const replica of replicas) expect(await requestsOf(replica.url, token)).toBeGreaterThan(0);
    },
    heavyTestTimeoutMs,
  );
});

/** How many requests of the workspace a replica received. */
async function requestsOf(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/_sandbox/requests`, { headers: { "x-token": token } });
  return ((await response.json()) as unknown[]).length;
}

describe("bot-conversation workspaces against a shared sandbox", () => {
  let postgres: TestPostgres;
  let replica: RunningSandbox;
  beforeAll(async () => {
    postgres = await startPostgres();
    replica = await startSandboxServer({ host: "127.0.0.1", port: 0, databaseUrl: await postgres.createDatabase("workspaces"), adminToken });
  }, heavyTestTimeoutMs);
  afterAll(async () => {
    await replica?.stop();
    await postgres?.dispose();
  }, heavyTestTimeoutMs);

  /** Runs `bot-conversation workspaces …` with the administrator token in the environment unless told otherwise. */
  const workspaces = (args: string[], env: Record<string, string> = { SANDBOX_ADMIN_TOKEN: adminToken }) =>
    run(process.execPath, [cli, "workspaces", ...args, "--base-url", replica.url], { env: { ...process.env, SANDBOX_ADMIN_TOKEN: "", ...env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it(
    "creates a workspace with its data and switches and prints its token once; lists; removes it, after which its token is refused",
    async () => {
      const created = await workspaces(["create", "mobile", "--conversations", "5", "--page-base", "1", "--output", "json"]);
      expect(created.code).toBe(0);
      const [answer] = JSON.parse(created.stdout) as { name: string; token: string; conversations: number }[];
      expect(answer).toMatchObject({ name: "mobile", conversations: 5 });
      const search = () => fetch(`${replica.url}/api/v2/channels/conversations`, { headers: { "x-token": answer!.token } });
      expect(await (await search()).json()).toMatchObject({ totalItemCount: 5, pageIndex: 1 });

      const listed = await workspaces(["list", "--output", "json"]);
      expect(listed.code).toBe(0);
      expect((JSON.parse(listed.stdout) as { name: string }[]).map((workspace) => workspace.name)).toEqual(["default", "mobile"]);

      const again = await workspaces(["create", "mobile"]);
      expect(again.code).toBe(1);
      expect(again.stderr).toBe('error: POST /_sandbox/workspaces answered 409: "A workspace named \\"mobile\\" exists already; nothing was created."\n');

      const removed = await workspaces(["delete", "mobile"]);
      expect(removed.code).toBe(0);
      expect((await search()).status).toBe(401);
      for (const result of [created, listed, again, removed]) expect(`${result.stdout}${result.stderr}`).not.toContain(adminToken);
    },
    heavyTestTimeoutMs,
  );

  it(
    "refuses bad usage before sending anything (exit 2), and a wrong administrator token is the sandbox's 401 (exit 1), never printed",
    async () => {
      const badSwitch = await workspaces(["create", "other", "--page-base", "2"]);
      expect(badSwitch.code).toBe(2);
      expect(badSwitch.stderr).toMatch(/--page-base: expected one of 0, 1; got "2"/);
      const noToken = await workspaces(["list"], {});
      expect(noToken.code).toBe(2);
      expect(noToken.stderr).toContain("no administrator token");
      const wrong = await workspaces(["list"], { SANDBOX_ADMIN_TOKEN: "not-the-admin-token-4711" });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain("401");
      expect(wrong.stderr).not.toContain("not-the-admin-token-4711");
      // Nothing was created by the refused command.
      const listed = await workspaces(["list", "--output", "json"]);
      expect((JSON.parse(listed.stdout) as { name: string }[]).map((workspace) => workspace.name)).not.toContain("other");
    },
    heavyTestTimeoutMs,
  );
});
