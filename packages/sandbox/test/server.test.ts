import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { ConversationPage } from "@bot-conversation/types";
import { afterAll, describe, expect, test } from "vitest";
import { type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { exampleFixture, exampleSessionId } from "./support/fixture.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const running = new Set<LaunchedSandbox>();
afterAll(async () => {
  for (const sandbox of running) await sandbox.stop("SIGKILL");
});
async function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<LaunchedSandbox> {
  const sandbox = await launchSandbox(args, { env });
  running.add(sandbox);
  return sandbox;
}
async function stop(sandbox: LaunchedSandbox, signal: NodeJS.Signals = "SIGTERM") {
  running.delete(sandbox);
  return sandbox.stop(signal);
}

const headers = { "x-token": "sandbox-token", "content-type": "application/json" };
const firePath = "/api/v1/runtime/simple/external/events";
const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";
const fire = (url: string, marker: string, init: RequestInit = {}) =>
  fetch(`${url}${firePath}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: marker } }),
    ...init,
  });
const firedMarkers = async (url: string) =>
  ((await (await fetch(`${url}/_sandbox/fired-events`, { headers })).json()) as { externalEventPayload: { orderNumber: string } }[]).map(
    (event) => event.externalEventPayload.orderNumber,
  );
const searchIds = async (url: string) =>
  ((await (await fetch(`${url}/api/v2/channels/conversations?pageSize=1000`, { headers })).json()) as ConversationPage).items.map((item) => item.id);

// Each test starts real processes (up to four); under a loaded CI machine a start alone can take seconds.
describe("the sandbox as a process on loopback", { timeout: 120_000 }, () => {
  test("prints `Sandbox ready at http://127.0.0.1:<port>` and serves the operations there; SIGTERM stops it cleanly", async () => {
    const sandbox = await start(["--conversations", "30"]);
    expect(sandbox.readyLine).toMatch(/^Sandbox ready at http:\/\/127\.0\.0\.1:\d+$/);
    expect(await searchIds(sandbox.url)).toHaveLength(30);
    expect(await stop(sandbox)).toEqual({ code: 0, signal: null });
  });

  test("--token and SANDBOX_TOKENS set the accepted tokens; no token ever appears in the output", async () => {
    const sandbox = await start(["--token", "first-secret", "--token", "second-secret"], { SANDBOX_TOKENS: "ignored-secret" });
    const status = async (token: string) => (await fetch(`${sandbox.url}/api/v2/channels/conversations`, { headers: { "x-token": token } })).status;
    expect([await status("first-secret"), await status("second-secret"), await status("ignored-secret"), await status("sandbox-token")]).toEqual([
      200, 200, 401, 401,
    ]);
    await stop(sandbox);
    const fromEnvironment = await start([], { SANDBOX_TOKENS: "env-secret" });
    const envStatus = async (token: string) => (await fetch(`${fromEnvironment.url}/_sandbox/fired-events`, { headers: { "x-token": token } })).status;
    expect([await envStatus("env-secret"), await envStatus("sandbox-token")]).toEqual([200, 401]);
    await stop(fromEnvironment);
    for (const secret of ["first-secret", "second-secret", "ignored-secret", "env-secret"]) {
      expect(sandbox.output() + fromEnvironment.output()).not.toContain(secret);
    }
  });

  test("without --data each start is the same fresh dataset; with --data the state survives a restart", async () => {
    const first = await start(["--conversations", "25", "--seed", "restart"]);
    const ids = await searchIds(first.url);
    await stop(first);
    const second = await start(["--conversations", "25", "--seed", "restart"]);
    expect(await searchIds(second.url)).toEqual(ids);
    await stop(second);

    const data = join(scratch, "restart.db");
    const kept = await start(["--data", data]);
    await fetch(`${kept.url}/_sandbox/fixture`, { method: "PUT", headers, body: JSON.stringify(exampleFixture()) });
    expect((await fire(kept.url, "before-restart")).status).toBe(200);
    await stop(kept);
    // A different seed and count only fill a new file: the kept state is served as it is.
    const restarted = await start(["--data", data, "--seed", "other", "--conversations", "5"]);
    expect(await searchIds(restarted.url)).toEqual([conversationId, "second-conversation"]);
    expect(await firedMarkers(restarted.url)).toEqual(["before-restart"]);
    await stop(restarted);
  });

  test("1,000 concurrent fires over HTTP are all answered 200 and all recorded", async () => {
    const sandbox = await start(["--fixture", writeFixture("concurrent.json")]);
    const markers = Array.from({ length: 1000 }, (_, index) => `order-${index}`);
    const statuses = await Promise.all(markers.map(async (marker) => (await fire(sandbox.url, marker)).status));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const recorded = await firedMarkers(sandbox.url);
    expect(recorded).toHaveLength(1000);
    expect(new Set(recorded)).toEqual(new Set(markers));
    await stop(sandbox);
  });

  test("SIGKILL while events are being fired loses none that was acknowledged", async () => {
    const data = join(scratch, "killed.db");
    const sandbox = await start(["--data", data, "--fixture", writeFixture("killed.json")]);
    const acknowledged: string[] = [];
    let sent = 0;
    // Eight writers fire without pause; the process is killed once 300 events have been acknowledged.
    const writer = async () => {
      for (;;) {
        const marker = `kill-${sent++}`;
        const response = await fire(sandbox.url, marker).catch(() => undefined);
        if (!response) return;
        if (response.status === 200) acknowledged.push(marker);
        if (acknowledged.length >= 300 && sandbox.process.exitCode === null && sandbox.process.signalCode === null) sandbox.process.kill("SIGKILL");
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    expect(await stop(sandbox)).toMatchObject({ signal: "SIGKILL" });
    expect(acknowledged.length).toBeGreaterThanOrEqual(300);
    const restarted = await start(["--data", data]);
    const recorded = new Set(await firedMarkers(restarted.url));
    expect(acknowledged.filter((marker) => !recorded.has(marker))).toEqual([]);
    await stop(restarted);
  });

  test("a bad fixture file stops the start with every defect named, and a kept database is not touched", async () => {
    const data = join(scratch, "untouched.db");
    const kept = await start(["--data", data, "--conversations", "10"]);
    const ids = await searchIds(kept.url);
    await stop(kept);
    const bad = exampleFixture() as unknown as { conversations: { startedOn: string }[] };
    bad.conversations[1]!.startedOn = "last week";
    const path = join(scratch, "bad.json");
    writeFileSync(path, JSON.stringify(bad));
    const failure = (await start(["--data", data, "--fixture", path]).catch((error: unknown) => error)) as { code: number; output: string };
    expect(failure.code).toBe(1);
    expect(failure.output).toContain('$.conversations[1].startedOn: expected an ISO 8601 date-time such as 2026-11-20T09:15:02+03:00; got "last week"');
    const again = await start(["--data", data]);
    expect(await searchIds(again.url)).toEqual(ids);
    await stop(again);
  });

  test("a database file of another layout stops the start, naming both layout versions, and is not touched", async () => {
    const data = join(scratch, "older-layout.db");
    const older = new DatabaseSync(data);
    older.exec("CREATE TABLE conversations (id TEXT); PRAGMA user_version = 2;");
    older.close();
    const failure = (await start(["--data", data]).catch((error: unknown) => error)) as { code: number; output: string };
    expect(failure.code).toBe(1);
    expect(failure.output).toContain("holds a sandbox database of another layout (version 2, expected 6)");
    const reopened = new DatabaseSync(data);
    expect(
      reopened
        .prepare("SELECT name FROM sqlite_schema")
        .all()
        .map((row) => row["name"]),
    ).toEqual(["conversations"]);
    reopened.close();
  });

  test("an externalConversationId over HTTP finds the platform conversation", async () => {
    const sandbox = await start(["--fixture", writeFixture("livechat.json")]);
    const response = await fetch(`${sandbox.url}${firePath}`, {
      method: "POST",
      headers,
      body: JSON.stringify({ externalConversationId: `${exampleSessionId}|livechat`, externalEventId: "callback-requested" }),
    });
    expect(response.status).toBe(200);
    await stop(sandbox);
  });
});

function writeFixture(name: string): string {
  const path = join(scratch, name);
  writeFileSync(path, JSON.stringify(exampleFixture()));
  return path;
}
