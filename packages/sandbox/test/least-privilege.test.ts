/**
 * The README's set-up of a shared sandbox, run: the SQL a database administrator runs, on a real
 * PostgreSQL, then two replicas as that role (every kind of write works, and the role can do no more);
 * and the one command that starts a PostgreSQL to try it on.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hangGuardMs, heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import pg from "pg";
import { afterEach, expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { shellCommands } from "./support/readme-commands.ts";
import { setUpDatabase, setUpStatements } from "./support/set-up.ts";
import { adminToken, call, createWorkspace, usePostgres } from "./support/shared.ts";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const postgres = usePostgres();
const launched: LaunchedSandbox[] = [];
afterEach(async () => {
  await Promise.all(launched.splice(0).map((replica) => replica.stop("SIGKILL")));
});

test(
  "the README's SQL: two replicas run as its role (workspaces, fires, faults, resets, removals), and the role may do nothing more",
  async () => {
    const { role } = setUpStatements();
    const url = new URL(await setUpDatabase(postgres.server().url));
    const env = { DATABASE_URL: url.toString(), SANDBOX_ADMIN_TOKEN: adminToken };
    const first = await launchSandbox(["--conversations", "10"], { env });
    launched.push(first);
    const second = await launchSandbox(["--conversations", "10"], { env });
    launched.push(second);

    const token = await createWorkspace(first.url, { name: "least", fixture: exampleFixture() });
    const conversationId = exampleFixture().conversations[0]!.conversation.id;
    const fire = { conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "least-1" } };
    expect((await call(second.url, token, "/api/v1/runtime/simple/external/events", { method: "POST", json: fire })).status).toBe(200);
    expect(((await (await call(first.url, token, "/_sandbox/fired-events")).json()) as unknown[]).length).toBe(1);
    expect((await call(first.url, token, "/_sandbox/faults", { method: "POST", json: { operationId: "searchConversations", status: 503 } })).status).toBe(201);
    // The other replica applies the fault once its notification arrives: waited for (a hang guard, not a speed), each search before it a 200 that leaves the fault armed.
    await expect.poll(async () => (await call(second.url, token, "/api/v2/channels/conversations")).status, { timeout: hangGuardMs(2_000) }).toBe(503);
    expect((await call(second.url, token, "/_sandbox/switches", { method: "PUT", json: { pageBase: 1 } })).status).toBe(200);
    expect((await call(first.url, token, "/_sandbox/reset", { method: "POST", json: { seed: "least", conversations: 4 } })).status).toBe(200);
    expect((await call(first.url, adminToken, "/_sandbox/workspaces/least", { method: "DELETE" })).status).toBe(204);
    expect((await fetch(`${second.url}/_sandbox/ready`)).status).toBe(200);

    // The tables are in the role's own schema; the role is no superuser, and may create nothing in public.
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const tables = await client.query<{ table_schema: string; table_name: string }>(
        "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name LIKE 'sandbox\\_%' ORDER BY table_name",
      );
      expect(tables.rows).toEqual(
        ["sandbox_fired_events", "sandbox_faults", "sandbox_schema", "sandbox_workspaces"].sort().map((name) => ({ table_schema: role, table_name: name })),
      );
      const powers = await client.query("SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles WHERE rolname = current_user");
      expect(powers.rows).toEqual([{ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolbypassrls: false }]);
      await expect(client.query("CREATE TABLE public.not_allowed (id integer)")).rejects.toMatchObject({ code: "42501" });
    } finally {
      await client.end();
    }
  },
  heavyTestTimeoutMs,
);

test(
  "the README's one command for a PostgreSQL to try it on: prints a DATABASE_URL that answers, and Ctrl-C stops it",
  async () => {
    const command = shellCommands(readme).find((line) => line.includes("local-postgres"));
    expect(command).toBe("pnpm --filter @bot-conversation/test-support local-postgres");
    // What the package script runs, run directly (the test does not depend on how pnpm was installed).
    const testSupport = fileURLToPath(new URL("../../test-support/", import.meta.url));
    const script = (JSON.parse(readFileSync(`${testSupport}package.json`, "utf8")) as { scripts: Record<string, string> }).scripts["local-postgres"];
    expect(script).toBe("node src/local-postgres.ts");
    const child = spawn(process.execPath, ["src/local-postgres.ts"], { cwd: testSupport, stdio: ["ignore", "pipe", "pipe"] });
    try {
      let output = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const found = /DATABASE_URL=(\S+)/.exec(output)?.[1];
          if (found) resolve(found);
        });
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      expect(new URL(url).pathname).toBe("/sandbox");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      expect((await client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
      await client.end();
      const exited = once(child, "exit");
      child.kill("SIGINT");
      expect((await exited)[0]).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  },
  heavyTestTimeoutMs,
);
