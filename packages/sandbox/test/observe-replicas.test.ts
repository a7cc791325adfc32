/**
 * Logs and metrics of two replicas as processes on one real PostgreSQL: a fire and a search counted
 * under their operation and status in a parsed scrape; PostgreSQL stopped (a log line, a metric, readiness
 * 503) and started again (a line); no token, password or body in anything either replica printed.
 */
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterEach, expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { parseMetrics, sampleOf } from "./support/prometheus.ts";
import { adminToken, call, createWorkspace, usePostgres } from "./support/shared.ts";

const postgres = usePostgres();
const launched: LaunchedSandbox[] = [];
afterEach(async () => {
  await Promise.all(launched.splice(0).map((replica) => replica.stop("SIGKILL")));
});

/** A replica on the database, logging JSON lines, stopped after the test. */
async function replica(databaseUrl: string): Promise<LaunchedSandbox> {
  const started = await launchSandbox(["--conversations", "20", "--log-format", "json"], {
    env: { DATABASE_URL: databaseUrl, SANDBOX_ADMIN_TOKEN: adminToken },
  });
  launched.push(started);
  return started;
}

/** The replica's log lines after its ready line, parsed. */
const logLines = (replica: LaunchedSandbox) =>
  replica
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string; [field: string]: unknown });

/**
 * Waits (a 30 s guard against a hang, not a bound on speed) until the replica has logged a line with this
 * message, or one that `matches` (a request's line is written in a batch, shortly after its answer).
 */
async function logged(
  replica: LaunchedSandbox,
  message: string,
  matches: (line: { level: string; msg: string; [field: string]: unknown }) => boolean = () => true,
): Promise<{ level: string; msg: string; [field: string]: unknown }> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const line = logLines(replica).find((candidate) => candidate.msg.startsWith(message) && matches(candidate));
    if (line || performance.now() > deadline) {
      expect(line, `${message} in:\n${replica.output()}`).toBeDefined();
      return line!;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A scrape of the replica's metrics with the administrator token, parsed by a Prometheus text-format parser. */
async function scrape(replica: LaunchedSandbox) {
  const response = await call(replica.url, adminToken, "/_sandbox/metrics");
  expect(response.status).toBe(200);
  return parseMetrics(await response.text());
}

test(
  "two replicas: a fire and a search counted by operation and status; PostgreSQL stopped and started, said by the log, the metrics and readiness; no secret or body in any line",
  async () => {
    const databaseUrl = await postgres.database();
    const [first, second] = [await replica(databaseUrl), await replica(databaseUrl)];
    const token = await createWorkspace(first.url, { name: "observed", fixture: exampleFixture() });
    const conversationId = exampleFixture().conversations[0]!.conversation.id;
    const body = { conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "body-marker-7f3a" } };
    expect(
      (await call(first.url, token, "/api/v1/runtime/simple/external/events", { method: "POST", json: body, headers: { "x-request-id": "fire-1" } })).status,
    ).toBe(200);
    expect((await call(second.url, token, "/api/v2/channels/conversations?pageSize=1")).status).toBe(200);
    expect((await call(second.url, token, "/api/v2/channels/conversations?pageSize=0")).status).toBe(400);
    // A reset on the first is announced to the second: a notification whose lag the second measures.
    expect((await call(first.url, token, "/_sandbox/reset", { method: "POST", json: { seed: "observed", conversations: 3 } })).status).toBe(200);

    const firstMetrics = await scrape(first);
    expect(sampleOf(firstMetrics, "sandbox_requests_total", { operation: "fireExternalEvent", status: "200", workspace: "observed" })).toBe(1);
    expect(sampleOf(firstMetrics, "sandbox_fires_committed_total", { workspace: "observed" })).toBe(1);
    expect(sampleOf(firstMetrics, "sandbox_requests_total", { operation: "createSandboxWorkspace", status: "201", workspace: "none" })).toBe(1);
    expect(sampleOf(firstMetrics, "sandbox_database_up")).toBe(1);
    expect(sampleOf(firstMetrics, "sandbox_database_pool_connections", { state: "in_use" })).toBeGreaterThanOrEqual(0);
    expect(sampleOf(firstMetrics, "sandbox_database_pool_connections", { state: "waiting" })).toBe(0);
    expect(sampleOf(firstMetrics, "sandbox_database_round_trip_seconds")).toBeGreaterThan(0);
    expect(sampleOf(firstMetrics, "sandbox_workspaces_loaded")).toBe(2);
    const secondMetrics = await scrape(second);
    expect(sampleOf(secondMetrics, "sandbox_requests_total", { operation: "searchConversations", status: "200", workspace: "observed" })).toBe(1);
    expect(sampleOf(secondMetrics, "sandbox_requests_total", { operation: "searchConversations", status: "400", workspace: "observed" })).toBe(1);
    expect(sampleOf(secondMetrics, "sandbox_requests_total", { operation: "fireExternalEvent" })).toBeUndefined();
    // Waited for (the second follows the reset on its own time), not timed.
    const deadline = performance.now() + 20_000;
    let lagCount = sampleOf(secondMetrics, "sandbox_notification_lag_seconds") ?? 0;
    while (lagCount < 1 && performance.now() < deadline) lagCount = sampleOf(await scrape(second), "sandbox_notification_lag_seconds") ?? 0;
    expect(lagCount).toBeGreaterThanOrEqual(1);

    const fireLine = await logged(first, "request", (line) => line["requestId"] === "fire-1");
    expect(fireLine).toMatchObject({ msg: "request", operation: "fireExternalEvent", workspace: "observed", status: 200, method: "POST" });
    expect(await logged(first, "workspace created")).toMatchObject({ workspace: "observed" });
    expect((await logged(first, "database connected"))["database"]).toMatch(/^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/sandbox_\d+$/);

    const server = postgres.server();
    await server.stop();
    try {
      for (const each of [first, second]) {
        expect((await logged(each, "database lost")).level).toBe("warn");
        expect(sampleOf(await scrape(each), "sandbox_database_up")).toBe(0);
        const ready = await fetch(`${each.url}/_sandbox/ready`);
        expect([ready.status, ready.headers.get("retry-after")]).toEqual([503, "1"]);
      }
    } finally {
      await server.start();
    }
    for (const each of [first, second]) {
      await logged(each, "database back");
      expect(sampleOf(await scrape(each), "sandbox_database_up")).toBe(1);
    }
    expect((await call(first.url, adminToken, "/_sandbox/workspaces/observed", { method: "DELETE" })).status).toBe(204);
    expect(await logged(first, "workspace removed")).toMatchObject({ workspace: "observed" });

    // The whole output of both: never a token, the database's password or a body.
    const output = first.output() + second.output();
    const password = new URL(databaseUrl).password;
    expect(password.length).toBeGreaterThan(0);
    for (const secret of [adminToken, token, password, "body-marker-7f3a", "sandbox-token"]) expect(output).not.toContain(secret);
  },
  heavyTestTimeoutMs,
);

test(
  "the lifecycle in the log: the ready line first (database connected after it); SIGTERM a draining line with the requests in flight, the exit a stopped line",
  async () => {
    const started = await replica(await postgres.database());
    // The first line of all the process printed, stdout and stderr alike.
    expect(started.output().split("\n")[0]).toBe(started.readyLine);
    await logged(started, "database connected");
    expect(await started.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const lines = logLines(started);
    const draining = lines.findIndex((line) => line.msg.startsWith("draining"));
    expect(lines[draining]).toMatchObject({ level: "info", msg: "draining: 0 requests in flight", requestsInFlight: 0 });
    expect(lines.findIndex((line) => line.msg === "database connected")).toBeLessThan(draining);
    // The last line of all.
    expect(lines.at(-1)).toMatchObject({ level: "info", msg: "stopped", exitCode: 0 });
    expect(started.output().trimEnd().split("\n").at(-1)).toMatch(/"msg":"stopped"/);
  },
  heavyTestTimeoutMs,
);
