import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startRoundRobin } from "@bot-conversation/test-support/round-robin";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { type RunningSandbox, startSandboxServer } from "../src/index.ts";
import { adminToken, call, createWorkspace, usePostgres } from "./support/shared.ts";

const run = promisify(execFile);
const postgres = usePostgres();
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const workflowsFile = fileURLToPath(new URL("../../../openapi/workflows/bot-conversation.arazzo.yaml", import.meta.url));
const redocly = fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url));
/** A token unlike any other text of the run, so its absence from the output means something. */
const token = "workflow-secret-7f3a9c";
const workflowIds = (parse(await readFile(workflowsFile, "utf8")) as { workflows: { workflowId: string }[] }).workflows.map((workflow) => workflow.workflowId);

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "sandbox-respect-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

interface RespectRun {
  /** Each workflow's status, by id. */
  readonly statuses: Record<string, string>;
  /** The names of the checks that failed, by workflow id. */
  readonly failedChecks: Record<string, string[]>;
  /** What respect printed and wrote, to look for the token in. */
  readonly everything: string;
}

/** Runs `redocly respect` on every workflow against the sandbox (with the test's token unless another is given), and reads its JSON report. */
async function respect(sandbox: { url: string }, name: string, extraArgs: readonly string[] = [], withToken = token): Promise<RespectRun> {
  const report = join(scratch, `${name}.json`);
  const result = await run(
    redocly,
    ["respect", workflowsFile, "--input", `token=${withToken}`, "--server", `botConversation=${sandbox.url}`, "--json-output", report, ...extraArgs],
    {
      cwd: packageDir,
      env: { ...process.env, REDOCLY_SUPPRESS_NOTIFICATIONS: "true", REDOCLY_TELEMETRY: "off", NO_COLOR: "1" },
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error: { stdout: string; stderr: string }) => error);
  const text = await readFile(report, "utf8");
  type Check = { name: string; passed: boolean; severity: string };
  const json = JSON.parse(text) as {
    files: Record<string, { executedWorkflows: { workflowId: string; status: string; executedSteps: { checks?: Check[] }[] }[] }>;
  };
  const executed = Object.values(json.files).flatMap((file) => file.executedWorkflows);
  return {
    statuses: Object.fromEntries(executed.map((workflow) => [workflow.workflowId, workflow.status])),
    failedChecks: Object.fromEntries(
      executed.map((workflow) => [
        workflow.workflowId,
        workflow.executedSteps.flatMap((step) => (step.checks ?? []).filter((check) => !check.passed).map((check) => check.name)),
      ]),
    ),
    everything: `${result.stdout}${result.stderr}${text}`,
  };
}

/** Starts a sandbox (default data) that accepts the test's token, for one test. */
async function sandboxWith(options: Record<string, unknown> = {}): Promise<RunningSandbox> {
  return startSandboxServer({ host: "127.0.0.1", port: 0, tokens: [token], ...options });
}

/** Arms a sandbox fault through the control API. */
async function armFault(sandbox: RunningSandbox, fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: "POST",
    headers: { "x-token": token, "content-type": "application/json" },
    body: JSON.stringify(fault),
  });
  expect(response.status).toBeLessThan(300);
}

describe("the Arazzo workflows, run by redocly respect against the sandbox", () => {
  test("the document holds the journeys the issue names", () => {
    expect(workflowIds).toEqual(
      expect.arrayContaining([
        "walkConversationPages",
        "fireListedTrigger",
        "fireByExternalConversationId",
        "unknownTriggerIsNotFound",
        "unknownConversationIsNotFound",
        "wrongTypedValueIsRejected",
      ]),
    );
  });

  test("every workflow passes against the default data, and the token is masked everywhere", async () => {
    const sandbox = await sandboxWith();
    try {
      const { statuses, everything } = await respect(sandbox, "default");
      expect(statuses).toEqual(Object.fromEntries(workflowIds.map((id) => [id, "success"])));
      expect(everything).not.toContain(token);
      // Every journey reached the sandbox: the fires were recorded (two by the happy paths).
      const fired = (await (await fetch(`${sandbox.url}/_sandbox/fired-events`, { headers: { "x-token": token } })).json()) as unknown[];
      expect(fired).toHaveLength(2);
    } finally {
      await sandbox.stop();
    }
  });

  test("the trigger journey's criteria hold whichever shape the trigger list has; only respect's schema check flags the description's array", async () => {
    const sandbox = await sandboxWith({ triggerList: "single" });
    try {
      // The description declares an array (its Decisions table); a single descriptor is the other answer the seed allows.
      expect((await respect(sandbox, "single")).failedChecks["fireListedTrigger"]).toEqual(["schema check"]);
      expect((await respect(sandbox, "single-schema-warn", ["--severity", "SCHEMA_CHECK=warn"])).statuses["fireListedTrigger"]).toBe("warn");
    } finally {
      await sandbox.stop();
    }
  });

  test("a 500 on every search turns the page walks red, and a 500 on everything turns every workflow red", async () => {
    const sandbox = await sandboxWith();
    try {
      await armFault(sandbox, { operationId: "searchConversations", status: 500, times: 1000 });
      const searches = (await respect(sandbox, "search-fault")).statuses;
      expect(searches["walkConversationPages"]).not.toBe("success");
      expect(searches["fireListedTrigger"]).toBe("success");

      await armFault(sandbox, { status: 500, times: 1000 });
      const everything = (await respect(sandbox, "every-fault")).statuses;
      expect(Object.entries(everything).filter(([, status]) => status === "success")).toEqual([]);
    } finally {
      await sandbox.stop();
    }
  });
});

describe("the Arazzo workflows against a workspace of a replicated sandbox", () => {
  test("every workflow passes through a round-robin balancer over two replicas on one PostgreSQL, and the workspace's token is masked everywhere", async () => {
    const databaseUrl = await postgres.database();
    const replicas = [
      await startSandboxServer({ host: "127.0.0.1", port: 0, databaseUrl, adminToken }),
      await startSandboxServer({ host: "127.0.0.1", port: 0, databaseUrl, adminToken }),
    ];
    const balancer = await startRoundRobin(replicas.map((replica) => replica.url));
    try {
      const workspaceToken = await createWorkspace(balancer.url, { name: "workflows" });
      const { statuses, everything } = await respect(balancer, "workspace", [], workspaceToken);
      expect(statuses).toEqual(Object.fromEntries(workflowIds.map((id) => [id, "success"])));
      expect(everything).not.toContain(workspaceToken);
      // The fires of both happy paths, through either replica, are the workspace's; the default workspace has none.
      for (const replica of replicas) expect((await (await call(replica.url, workspaceToken, "/_sandbox/fired-events")).json()) as unknown[]).toHaveLength(2);
      expect((await (await call(replicas[0]!.url, "sandbox-token", "/_sandbox/fired-events")).json()) as unknown[]).toEqual([]);
    } finally {
      await balancer.close();
      for (const replica of replicas) await replica.stop();
    }
  });
});
