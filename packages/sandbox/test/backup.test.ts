/**
 * The README's backup and restore, as a team runs them: its `pg_dump` and `pg_restore` commands, as written, with
 * Debian's PostgreSQL client against a server of the same major (the embedded PostgreSQL 18 ships no client, and
 * an older `pg_dump` refuses a newer server), from a database set up by the README's block and served by a
 * replica, into a new one set up by the same block; a replica on the restored database serves the same
 * workspace, token and fired events. Where Debian's PostgreSQL is not installed, one line says the test did not
 * run (CI installs it: .ci/provision.sh).
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { installed, programForTests } from "@bot-conversation/test-support/machine-programs";
import { startPostgres, type TestPostgres } from "@bot-conversation/test-support/postgres";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, describe, expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { setUpDatabase } from "./support/set-up.ts";
import { adminToken, call, createWorkspace } from "./support/shared.ts";

const run = promisify(execFile);
const what = "backup tests (the README's pg_dump and pg_restore)";
/** Debian's PostgreSQL of the client's major: its server binaries' folder, or `undefined` (said in one line). */
const debianServer = (() => {
  if (!programForTests("pg_dump", what, "postgresql")) return undefined;
  const major = /\(PostgreSQL\) (\d+)/.exec(spawnSync("pg_dump", ["--version"], { encoding: "utf8" }).stdout)?.[1];
  const folder = `/usr/lib/postgresql/${major}`;
  if (major !== undefined && installed(`${folder}/bin/postgres`) && installed("pg_restore")) return folder;
  console.warn(`${what} not run: no PostgreSQL ${major ?? "?"} server beside pg_dump (apt-get install postgresql-${major ?? "<major>"}); CI runs them`);
  return undefined;
})();

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
const backups = readme.slice(readme.indexOf("**Backups.**"), readme.indexOf("**Stopping.**"));
/** The README's commands, as written. */
const dumpCommand = /`(pg_dump [^`]+)`/.exec(backups)?.[1];
const restoreCommand = /`(pg_restore [^`]+)`/.exec(backups)?.[1];

describe.skipIf(debianServer === undefined)("the README's backup, restored into a new database set up by its block", () => {
  const servers: TestPostgres[] = [];
  const launched: LaunchedSandbox[] = [];
  let folder: string;
  afterAll(async () => {
    await Promise.all(launched.map((replica) => replica.stop("SIGKILL")));
    await Promise.all(servers.map((server) => server.dispose()));
    if (folder) await rm(folder, { recursive: true, force: true });
  }, heavyTestTimeoutMs);

  /** A README command run by bash in the test's folder with `DATABASE_URL`, as a person runs it: its exit code and output. */
  async function shell(command: string, databaseUrl: string): Promise<{ code: number; output: string }> {
    return run("bash", ["-c", command], { cwd: folder, env: { ...process.env, DATABASE_URL: databaseUrl } }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
    );
  }

  test(
    "pg_dump and pg_restore exit 0 as the set-up's role, and a replica on the restored database serves the same workspace, token and fired events",
    async () => {
      expect(dumpCommand).toBe('pg_dump --format=custom --file=sandbox.dump "$DATABASE_URL"');
      expect(restoreCommand).toMatch(/^pg_restore .*--dbname="\$DATABASE_URL" sandbox\.dump$/);
      folder = await mkdtemp(join(tmpdir(), "sandbox-backup-"));
      const [original, restored] = [await startPostgres({ binaries: debianServer! }), await startPostgres({ binaries: debianServer! })];
      servers.push(original, restored);

      // The original: set up by the block, served by a replica as its role, with a workspace and a fire.
      const originalUrl = await setUpDatabase(original.url);
      const env = (databaseUrl: string) => ({ DATABASE_URL: databaseUrl, SANDBOX_ADMIN_TOKEN: adminToken });
      const first = await launchSandbox(["--conversations", "10"], { env: env(originalUrl) });
      launched.push(first);
      const token = await createWorkspace(first.url, { name: "kept", fixture: exampleFixture() });
      const conversationId = exampleFixture().conversations[0]!.conversation.id;
      const fire = { conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "backup-1" } };
      expect((await call(first.url, token, "/api/v1/runtime/simple/external/events", { method: "POST", json: fire })).status).toBe(200);
      await first.stop("SIGTERM");

      const dumped = await shell(dumpCommand!, originalUrl);
      expect(dumped).toEqual({ code: 0, output: "" });
      const restoredUrl = await setUpDatabase(restored.url);
      const restoredRun = await shell(restoreCommand!, restoredUrl);
      expect(restoredRun).toEqual({ code: 0, output: "" });

      const second = await launchSandbox(["--conversations", "10"], { env: env(restoredUrl) });
      launched.push(second);
      const page = (await (await call(second.url, token, "/api/v2/channels/conversations?pageSize=100")).json()) as { totalItemCount: number };
      expect(page.totalItemCount).toBe(exampleFixture().conversations.length);
      const after = { ...fire, externalEventPayload: { orderNumber: "backup-2" } };
      expect((await call(second.url, token, "/api/v1/runtime/simple/external/events", { method: "POST", json: after })).status).toBe(200);
      // The restored fire (its transaction id from the other cluster, which this one never gave), then the new one.
      const fired = (await (await call(second.url, token, "/_sandbox/fired-events")).json()) as { externalEventPayload: unknown }[];
      expect(fired.map((event) => event.externalEventPayload)).toEqual([{ orderNumber: "backup-1" }, { orderNumber: "backup-2" }]);
      const listed = (await (await call(second.url, adminToken, "/_sandbox/workspaces")).json()) as { name: string }[];
      expect(listed.map((workspace) => workspace.name)).toContain("kept");
    },
    heavyTestTimeoutMs,
  );
});
