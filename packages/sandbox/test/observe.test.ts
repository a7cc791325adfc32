/**
 * What runs around every request of a sandbox made by `createSandbox` (here in memory; `shared.test.ts`
 * and `observe-replicas.test.ts` on PostgreSQL): the log line, the request id, the metrics, the index at
 * `/`, and the graceful drain.
 */

import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { createSandbox, LaunchError, type LaunchedSandbox, launchSandbox, type Sandbox, startSandboxServer } from "../src/index.ts";
import { createLogger } from "../src/observe/log.ts";
import { SandboxMetrics, workspaceLabelLimit } from "../src/observe/metrics.ts";
import { newObserver } from "../src/observe/observe.ts";
import { exampleFixture } from "./support/fixture.ts";
import { parseMetrics, sampleOf } from "./support/prometheus.ts";

const token = "sandbox-token";
const opened: Sandbox[] = [];
const launched: LaunchedSandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.close()));
  await Promise.all(launched.splice(0).map((sandbox) => sandbox.stop("SIGKILL")));
});

/** A stream that keeps what is written to it, and the log lines it received, parsed. */
function capture(): { stream: Writable; lines(): Record<string, unknown>[]; text(): string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** Opens a sandbox on the example fixture, closed after the test. */
async function open(options: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ fixture: exampleFixture(), ...options });
  opened.push(sandbox);
  return sandbox;
}

const conversationId = exampleFixture().conversations[0]!.conversation.id;
const fireInit = (marker: string): RequestInit => ({
  method: "POST",
  headers: { "x-token": token, "content-type": "application/json" },
  body: JSON.stringify({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: marker } }),
});

describe("the log", () => {
  test("request ids made here: a UUID in form, one per request, their last 12 hex digits counting by one past every 4,096", async () => {
    const sandbox = await open({ logger: await createLogger(capture().stream, "json") });
    const ids: string[] = [];
    // More than twice the table of the count's low digits, so the count's higher digits change at least twice.
    for (let index = 0; index < 2 * 4096 + 10; index++) {
      const response = await sandbox.fetch("http://127.0.0.1/api/v2/channels/conversations?pageSize=1", { headers: { "x-token": token } });
      ids.push(response.headers.get("x-request-id") ?? "");
    }
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = ids.map((id) => Number.parseInt(id.slice(24), 16));
    expect(counts.slice(1).every((count, index) => count === counts[index]! + 1)).toBe(true);
    expect(new Set(ids.map((id) => id.slice(0, 24))).size).toBe(1);
  });

  test("one JSON line per request: request id (the client's X-Request-Id, else one made and answered), method, path, operation, workspace, status, duration", async () => {
    const log = capture();
    const sandbox = await open({ logger: await createLogger(log.stream, "json") });
    const search = await sandbox.fetch("http://127.0.0.1/api/v2/channels/conversations?pageSize=1", {
      headers: { "x-token": token, "x-request-id": "trace-42" },
    });
    const fired = await sandbox.fetch("http://127.0.0.1/api/v1/runtime/simple/external/events", fireInit("marker-in-a-body"));
    const refused = await sandbox.fetch("http://127.0.0.1/_sandbox/bots", { headers: { "x-token": "wrong-secret-token", "x-request-id": "has space" } });
    expect([search.status, fired.status, refused.status]).toEqual([200, 200, 401]);
    expect(search.headers.get("x-request-id")).toBe("trace-42");
    const made = fired.headers.get("x-request-id");
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    // A request id that is not a plain token is replaced, not echoed.
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const lines = log.lines();
    expect(
      lines.map(({ requestId, method, path, operation, workspace, status, msg, level }) => ({
        requestId,
        method,
        path,
        operation,
        workspace,
        status,
        msg,
        level,
      })),
    ).toEqual([
      {
        requestId: "trace-42",
        method: "GET",
        path: "/api/v2/channels/conversations",
        operation: "searchConversations",
        workspace: "default",
        status: 200,
        msg: "request",
        level: "info",
      },
      {
        requestId: made,
        method: "POST",
        path: "/api/v1/runtime/simple/external/events",
        operation: "fireExternalEvent",
        workspace: "default",
        status: 200,
        msg: "request",
        level: "info",
      },
      {
        requestId: refused.headers.get("x-request-id"),
        method: "GET",
        path: "/_sandbox/bots",
        operation: "listSandboxBots",
        // A token of no workspace reached none.
        workspace: undefined,
        status: 401,
        msg: "request",
        level: "info",
      },
    ]);
    for (const line of lines) {
      expect(typeof line["durationMs"]).toBe("number");
      expect(Date.parse(line["time"] as string)).not.toBeNaN();
    }
    // Never a token, the query or a body.
    for (const secret of [token, "wrong-secret-token", "marker-in-a-body", "pageSize"]) expect(log.text()).not.toContain(secret);
  });

  test("a request's journal record and its log line give the one time from its arrival to its answer, the latency option's wait included", async () => {
    const log = capture();
    const sandbox = await open({ logger: await createLogger(log.stream, "json"), latency: 25 });
    const answers = await Promise.all(
      ["a", "b"].map((id) => sandbox.fetch("http://127.0.0.1/api/v2/channels/conversations?pageSize=1", { headers: { "x-token": token, "x-request-id": id } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const journaled = sandbox.requests({ path: "/api/v2/channels/conversations" });
    const lines = log.lines();
    expect(journaled).toHaveLength(2);
    for (const id of ["a", "b"]) {
      const line = lines.find((candidate) => candidate["requestId"] === id)!;
      expect(line["durationMs"]).toBe(journaled.find((record) => record.headers["x-request-id"] === id)!.durationMs);
      // The wait is counted (the timer may fire a little before 25 ms by the clock the time is read from).
      expect(line["durationMs"]).toBeGreaterThan(15);
    }
  });

  test("pretty: one line per request for a person, with the same fields", async () => {
    const log = capture();
    const sandbox = await open({ logger: await createLogger(log.stream, "pretty") });
    await sandbox.fetch("http://127.0.0.1/api/v2/channels/conversations", { headers: { "x-token": token, "x-request-id": "pretty-1" } });
    expect(log.text()).toMatch(/INFO.*request/);
    expect(log.text()).toContain("pretty-1");
    expect(log.text()).toContain("searchConversations");
    expect(() => JSON.parse(log.text().split("\n")[0]!)).toThrow();
    // One line: the fields on the line of the message.
    expect(log.text().trimEnd().split("\n")).toHaveLength(1);
  });

  test("createSandbox in process without a logger writes nothing", async () => {
    const writes = [vi.spyOn(process.stdout, "write"), vi.spyOn(process.stderr, "write")];
    try {
      const sandbox = await open();
      await sandbox.fetch("http://127.0.0.1/api/v2/channels/conversations", { headers: { "x-token": token } });
      await sandbox.fetch("http://127.0.0.1/api/v2/channels/conversations");
      for (const write of writes) expect(write).not.toHaveBeenCalled();
    } finally {
      for (const write of writes) write.mockRestore();
    }
  });

  test("the command writes JSON lines when its output is not a terminal; --log-format is checked", async () => {
    const sandbox = await launchSandbox(["--conversations", "5"]);
    launched.push(sandbox);
    await fetch(`${sandbox.url}/api/v2/channels/conversations`, { headers: { "x-token": token } });
    await sandbox.stop("SIGTERM");
    const [ready, ...rest] = sandbox.output().split("\n").filter(Boolean);
    expect(ready).toBe(sandbox.readyLine);
    expect(rest.map((line) => JSON.parse(line) as { msg: string; operation?: string })).toContainEqual(
      expect.objectContaining({ msg: "request", operation: "searchConversations", status: 200 }),
    );
    const refused = await launchSandbox(["--log-format", "xml"]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LaunchError);
    expect((refused as LaunchError).code).toBe(2);
    expect((refused as LaunchError).output).toBe('error: --log-format: expected one of json, pretty; got "xml"\n');
  });

  test(
    "the command's JSON lines to a pipe are batched: a lone line arrives while it runs, and every line by its exit",
    async () => {
      const sandbox = await launchSandbox(["--conversations", "5"]);
      launched.push(sandbox);
      const search = (id: string) =>
        fetch(`${sandbox.url}/api/v2/channels/conversations`, { headers: { "x-token": token, "x-request-id": id } }).then((response) => response.arrayBuffer());
      const requestLines = () =>
        sandbox
          .output()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { msg: string; requestId?: string })
          .filter((line) => line.msg === "request");
      // One line, far under a batch: written by the periodic flush, without another request or an exit.
      await search("lone");
      const deadline = performance.now() + 10_000; // a hang guard, not a bound on speed
      while (!requestLines().some((line) => line.requestId === "lone") && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(requestLines().map((line) => line.requestId)).toEqual(["lone"]);
      // Many, then SIGTERM at once: every one is in the output, in order.
      for (let index = 0; index < 300; index++) await search(`r${index}`);
      expect(await sandbox.stop("SIGTERM")).toEqual({ code: 0, signal: null });
      expect(requestLines().map((line) => line.requestId)).toEqual(["lone", ...Array.from({ length: 300 }, (_, index) => `r${index}`)]);
    },
    heavyTestTimeoutMs,
  );

  test(
    "launchSandbox keeps the last 1 MiB of a busy sandbox's log lines, and says how much it left out",
    async () => {
      const sandbox = await launchSandbox(["--conversations", "5"]);
      launched.push(sandbox);
      // Each search is a log line of a few hundred bytes: enough of them to pass 1 MiB twice over.
      const search = () =>
        fetch(`${sandbox.url}/api/v2/channels/conversations?pageSize=1`, { headers: { "x-token": token } }).then((response) => response.arrayBuffer());
      for (let batch = 0; batch < 80; batch++) await Promise.all(Array.from({ length: 100 }, search));
      await fetch(`${sandbox.url}/the-last-request`, { headers: { "x-token": token } });
      await sandbox.stop("SIGTERM");
      const output = sandbox.output();
      const [note, ...rest] = output.split("\n");
      const left = Number(/^\[(\d+) earlier bytes left out\]$/.exec(note!)?.[1]);
      expect(left).toBeGreaterThan(1024 * 1024);
      expect(Buffer.byteLength(rest.join("\n"))).toBe(1024 * 1024);
      // The oldest lines are gone, the newest kept (compared as booleans: the output is 1 MiB).
      expect(output.includes(sandbox.readyLine)).toBe(false);
      expect(output.includes('"path":"/the-last-request"')).toBe(true);
    },
    heavyTestTimeoutMs,
  );
});

describe("the metrics", () => {
  test("GET /_sandbox/metrics: requests by operation and status, latency, fires committed, workspaces loaded; in a registry of each sandbox's own", async () => {
    const [first, second] = [await open(), await open()];
    await first.fetch("http://127.0.0.1/api/v2/channels/conversations", { headers: { "x-token": token } });
    await first.fetch("http://127.0.0.1/api/v2/channels/conversations?pageSize=0", { headers: { "x-token": token } });
    await first.fetch("http://127.0.0.1/api/v1/runtime/simple/external/events", fireInit("one"));
    await first.fetch("http://127.0.0.1/api/v2/channels/conversations");
    const scrape = await first.fetch("http://127.0.0.1/_sandbox/metrics", { headers: { "x-token": token } });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const metrics = parseMetrics(await scrape.text());
    const requests = (operation: string, status: string) => sampleOf(metrics, "sandbox_requests_total", { operation, status, workspace: "default" });
    expect([requests("searchConversations", "200"), requests("searchConversations", "400"), requests("searchConversations", "401")]).toEqual([1, 1, 1]);
    expect(requests("fireExternalEvent", "200")).toBe(1);
    // The parser folds a labelled histogram's series into one (its limit): the family and its buckets are checked.
    const latency = metrics.get("sandbox_request_duration_seconds");
    expect(latency?.type).toBe("HISTOGRAM");
    expect(Object.keys(latency?.metrics[0]?.buckets ?? {})).toContain("+Inf");
    expect(sampleOf(metrics, "sandbox_fires_committed_total", { workspace: "default" })).toBe(1);
    expect(sampleOf(metrics, "sandbox_workspaces_loaded")).toBe(1);
    // Without a database, no database metrics.
    expect(metrics.has("sandbox_database_up")).toBe(false);

    // The other sandbox counted only its own requests.
    const other = parseMetrics(await (await second.fetch("http://127.0.0.1/_sandbox/metrics", { headers: { "x-token": token } })).text());
    expect(sampleOf(other, "sandbox_requests_total", { operation: "searchConversations" })).toBeUndefined();
  });

  test("the same with --data: a fire committed to the file is counted, and with --admin-token only that token scrapes", async () => {
    const folder = mkdtempSync(join(tmpdir(), "sandbox-observe-"));
    try {
      const sandbox = await open({ data: join(folder, "data.db"), adminToken: "an-admin-token-of-the-test" });
      expect((await sandbox.fetch("http://127.0.0.1/api/v1/runtime/simple/external/events", fireInit("kept"))).status).toBe(200);
      expect((await sandbox.fetch("http://127.0.0.1/_sandbox/metrics", { headers: { "x-token": token } })).status).toBe(401);
      const metrics = parseMetrics(
        await (await sandbox.fetch("http://127.0.0.1/_sandbox/metrics", { headers: { "x-token": "an-admin-token-of-the-test" } })).text(),
      );
      expect(sampleOf(metrics, "sandbox_fires_committed_total", { workspace: "default" })).toBe(1);
      expect(sampleOf(metrics, "sandbox_requests_total", { operation: "fireExternalEvent", status: "200" })).toBe(1);
    } finally {
      await Promise.all(opened.splice(0).map((sandbox) => sandbox.close()));
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test.each([
    ["Bearer <administrator token>", "Bearer an-admin-token-of-the-test", 200],
    ["bearer in lower case (RFC 6750's scheme is case-insensitive)", "bearer an-admin-token-of-the-test", 200],
    ["Bearer <an accepted token>, not the administrator's", `Bearer ${token}`, 401],
    ["Bearer <wrong token>", "Bearer not-the-admin-token", 401],
    ["Basic <administrator token>", "Basic an-admin-token-of-the-test", 401],
    ["Bearer with no token", "Bearer ", 401],
  ])("the metrics take the token as Prometheus sends it, Authorization: %s → %i", async (_case, authorization, status) => {
    const sandbox = await open({ adminToken: "an-admin-token-of-the-test" });
    const scrape = await sandbox.fetch("http://127.0.0.1/_sandbox/metrics", { headers: { authorization } });
    expect(scrape.status).toBe(status);
    if (status === 200) expect(await scrape.text()).toContain("sandbox_workspaces_loaded 1");
    else {
      expect(scrape.headers.get("www-authenticate")).toBe("Bearer");
      const { detail } = (await scrape.json()) as { detail: string };
      expect(detail).toContain("Authorization: Bearer <token>");
      expect(detail).not.toContain("an-admin-token-of-the-test");
    }
  });

  test("the metrics need an accepted token without --admin-token (our choice), and the control API's Host guard over HTTP", async () => {
    const running = await startSandboxServer({ host: "127.0.0.1", port: 0, tokens: ["team-secret-token"], conversations: 5 });
    try {
      expect((await fetch(`${running.url}/_sandbox/metrics`)).status).toBe(401);
      expect((await fetch(`${running.url}/_sandbox/metrics`, { headers: { "x-token": "sandbox-token" } })).status).toBe(401);
      expect((await fetch(`${running.url}/_sandbox/metrics`, { headers: { "x-token": "team-secret-token" } })).status).toBe(200);
      expect((await fetch(`${running.url}/_sandbox/metrics`, { headers: { authorization: "Bearer team-secret-token" } })).status).toBe(200);
      // fetch may not set Host: Node's own client does.
      const otherHost = await new Promise<number | undefined>((resolve, reject) =>
        get(`${running.url}/_sandbox/metrics`, { headers: { "x-token": "team-secret-token", host: "evil.example" } }, (response) => {
          response.resume();
          resolve(response.statusCode);
        }).on("error", reject),
      );
      expect(otherHost).toBe(403);
    } finally {
      await running.stop();
    }
  });

  test("a change heard more than 1 s after its announcement: a warn line and the lag observed; a prompt one only observed", async () => {
    const log = capture();
    const observer = newObserver(await createLogger(log.stream, "json"));
    observer.events.changeHeard({ workspace: "mobile", change: "data", announcedAt: Date.now() - 5_000 });
    observer.events.changeHeard({ workspace: "mobile", change: "faults", announcedAt: Date.now() });
    expect(log.lines()).toEqual([expect.objectContaining({ level: "warn", msg: "replica notification lagging", workspace: "mobile", change: "data" })]);
    expect(log.lines()[0]!["lagMs"]).toBeGreaterThanOrEqual(5_000);
    const metrics = parseMetrics(await observer.metrics.registry.metrics());
    expect(sampleOf(metrics, "sandbox_notification_lag_seconds")).toBe(2);
  });

  test(`workspace labels: the first ${workspaceLabelLimit} names (default included) by name, the others as "other"`, () => {
    const metrics = new SandboxMetrics();
    const names = Array.from({ length: workspaceLabelLimit + 5 }, (_, index) => `team-${index}`);
    const labels = names.map((name) => metrics.workspaceLabel(name));
    expect(labels.slice(0, workspaceLabelLimit - 1)).toEqual(names.slice(0, workspaceLabelLimit - 1));
    expect(new Set(labels.slice(workspaceLabelLimit - 1))).toEqual(new Set(["other"]));
    // A name labelled once keeps its label.
    expect(metrics.workspaceLabel("team-0")).toBe("team-0");
    expect(metrics.workspaceLabel("default")).toBe("default");
  });
});

describe("the index at /", () => {
  test("answered without a token: plain text for curl, HTML for a browser; the token header named, a configured token never shown", async () => {
    const sandbox = await open({ tokens: ["configured-secret-token"] });
    const plain = await sandbox.fetch("http://127.0.0.1:4011/", { headers: { accept: "*/*" } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await plain.text();
    expect(text).toContain("X-Token");
    expect(text).toContain("curl -H 'X-Token: sandbox-token' 'http://127.0.0.1:4011/_sandbox/bots'");
    const page = await sandbox.fetch("http://127.0.0.1:4011/", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain('<a href="/_sandbox/bots">');
    // No reference was given: none is linked (a guessed port would be wrong as often as not).
    expect(html).not.toContain(":8080");
    expect(text).toContain("The API reference is not served by the sandbox: pnpm start serves it beside it (--reference-url links it here).");
    for (const body of [text, html]) expect(body).not.toContain("configured-secret-token");
    const head = await sandbox.fetch("http://127.0.0.1:4011/", { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    // Nothing else is answered without the token.
    expect((await sandbox.fetch("http://127.0.0.1:4011/_sandbox/bots")).status).toBe(401);
  });
});

describe("the index names what the sandbox serves, and links the reference it was given", () => {
  const folder = mkdtempSync(join(tmpdir(), "sandbox-index-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const fixturePath = join(folder, "fixture.json");
  writeFileSync(fixturePath, JSON.stringify(exampleFixture()));

  test.each<[string, () => Parameters<typeof createSandbox>[0], string]>([
    ["generated data", () => ({ fixture: undefined, seed: "index-seed", conversations: 7 }), 'generated data (seed "index-seed", 7 conversations)'],
    ["a fixture given in process", () => ({}), "the data of a fixture"],
    ["a --fixture file", () => ({ fixture: fixturePath }), "the data of its --fixture file"],
    ["a --data file", () => ({ data: join(folder, "index.db") }), "the data kept in its --data file (SQLite), across restarts"],
  ])("%s", async (_case, optionsOf, served) => {
    const sandbox = await open({ ...optionsOf(), referenceUrl: "http://127.0.0.1:5080/" });
    const text = await (await sandbox.fetch("http://127.0.0.1:4011/", { headers: { accept: "*/*" } })).text();
    expect(text).toContain(`The service's three operations with its rules over ${served}, and a control API under /_sandbox/.`);
    expect(text).toContain("The API reference: http://127.0.0.1:5080/ (the control API: http://127.0.0.1:5080/sandbox-control.html).");
    expect(text).not.toContain(folder);
    const html = await (await sandbox.fetch("http://127.0.0.1:4011/", { headers: { accept: "text/html" } })).text();
    expect(html).toContain('<a href="http://127.0.0.1:5080/">The API reference</a>');
    expect(html).toContain('<a href="http://127.0.0.1:5080/sandbox-control.html">the control API\'s</a>');
  });

  test("the command reads the reference from SANDBOX_REFERENCE_URL, as pnpm start gives it", async () => {
    const sandbox = await launchSandbox(["--conversations", "5"], { env: { SANDBOX_REFERENCE_URL: "http://127.0.0.1:5080/" } });
    launched.push(sandbox);
    const text = await (await fetch(`${sandbox.url}/`)).text();
    expect(text).toContain('over generated data (seed "bot-conversation", 5 conversations)');
    expect(text).toContain("The API reference: http://127.0.0.1:5080/ ");
  });

  test("--reference-url (or SANDBOX_REFERENCE_URL) is checked: an http or https URL", async () => {
    await expect(open({ referenceUrl: "javascript:alert(1)" })).rejects.toThrow(
      'referenceUrl: expected an http or https URL such as http://127.0.0.1:8080/; got "javascript:alert(1)"',
    );
    const refused = await launchSandbox(["--reference-url", "docs"]).catch((error: unknown) => error);
    expect((refused as LaunchError).output).toBe(
      'error: --reference-url / SANDBOX_REFERENCE_URL: expected an http or https URL such as http://127.0.0.1:8080/; got "docs"\n',
    );
  });
});

describe("graceful shutdown", () => {
  test("stop lets the requests in flight finish before it resolves; readiness is 503 meanwhile", async () => {
    const running = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 5, latency: 1500 });
    const slow = running.sandbox.fetch("http://127.0.0.1/api/v2/channels/conversations", { headers: { "x-token": token } });
    const order: string[] = [];
    const answered = slow.then((response) => order.push(`answered ${response.status}`));
    const stopped = running.stop().then(() => order.push("stopped"));
    const ready = await running.sandbox.fetch("http://127.0.0.1/_sandbox/ready");
    expect([ready.status, ready.headers.get("retry-after")]).toEqual([503, "1"]);
    await Promise.all([answered, stopped]);
    expect(order).toEqual(["answered 200", "stopped"]);
  });

  test("while draining, /_sandbox/ready answers 503 on a kept-alive connection, which is closed after it; a new connection is refused; a line says how many requests are in flight", async () => {
    const log = capture();
    const running = await startSandboxServer({ host: "127.0.0.1", port: 0, conversations: 5, logger: await createLogger(log.stream, "json") });
    // One kept-alive connection, asked twice: before the stop and while draining.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (path: string) =>
      new Promise<{ status: number | undefined; connection: string | undefined; reusedSocket: boolean; closed: Promise<unknown> }>((resolve, reject) => {
        const request = get(`${running.url}${path}`, { agent }, (response) => {
          response.resume();
          const closed = once(response.socket, "close");
          response.on("end", () =>
            resolve({ status: response.statusCode, connection: response.headers.connection, reusedSocket: request.reusedSocket, closed }),
          );
        });
        request.on("error", reject);
      });
    try {
      expect(await ask("/_sandbox/ready")).toMatchObject({ status: 200, connection: "keep-alive" });
      // A fire held in flight (its body still coming) keeps the drain open until the test ends it.
      let endBody!: () => void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"conversationId":"none",'));
          endBody = () => {
            controller.enqueue(new TextEncoder().encode('"externalEventId":"none"}'));
            controller.close();
          };
        },
      });
      const held = running.sandbox.fetch("http://127.0.0.1/api/v1/runtime/simple/external/events", {
        method: "POST",
        headers: { "x-token": token, "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit);
      const stopped = running.stop();
      const draining = await ask("/_sandbox/ready");
      expect(draining).toMatchObject({ status: 503, connection: "close", reusedSocket: true });
      await draining.closed;
      await expect(fetch(`${running.url}/_sandbox/ready`)).rejects.toThrow();
      endBody();
      expect((await held).status).toBe(404);
      await stopped;
      expect(log.lines()).toContainEqual(expect.objectContaining({ level: "info", msg: "draining: 1 request in flight", requestsInFlight: 1 }));
    } finally {
      agent.destroy();
    }
  });

  test("SIGTERM to the command: a request in flight over HTTP is answered, then the process exits 0", async () => {
    const sandbox = await launchSandbox(["--conversations", "5", "--latency", "3000"]);
    launched.push(sandbox);
    const slow = fetch(`${sandbox.url}/api/v2/channels/conversations`, { headers: { "x-token": token } });
    // The request is on its way (the latency holds it for 3 s) before the signal.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const exited = sandbox.stop("SIGTERM");
    expect((await slow).status).toBe(200);
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});
