import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createSandbox, launchSandbox, type SandboxSwitches } from "@bot-conversation/sandbox";
import { listenOnLoopback } from "@bot-conversation/test-support/loopback";
import { selfSignedCertificate } from "@bot-conversation/test-support/tls";
import type { ConversationPage, ConversationSummary, ExternalEventTrigger } from "@bot-conversation/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pseudonymOf } from "../src/record/pseudonyms.ts";
import { startRecorder } from "../src/record/recorder.ts";
import type { RecordReport } from "../src/record/report.ts";
import { binPath, runCli } from "./support/cli.ts";
import { matching, personalWords, realBot, realConversations, realToken, realTriggers, startRealService } from "./support/real-service.ts";

const newDir = () => mkdtemp(join(tmpdir(), "record-"));

/** A request through `base` with the service's token (or another). */
const call = (base: string, path: string, init: RequestInit & { token?: string; extra?: Record<string, string> } = {}) =>
  fetch(`${base}${path}`, {
    ...init,
    headers: { "X-Token": init.token ?? realToken, ...(init.body ? { "Content-Type": "application/json" } : {}), ...init.extra },
  });

/** An Authorization and a Cookie a client sends besides its token: never written either. */
const otherCredentials = { Authorization: "Bearer authorization-secret-42", Cookie: "sid=cookie-secret-77; theme=dark" };

const searchPath = (query: Record<string, string | number>) =>
  `/api/v2/channels/conversations?${new URLSearchParams(Object.entries({ agentStageId: realBot, ...query }).map(([key, value]) => [key, String(value)]))}`;

/** One session of a client: every page of the bot (from the service's first page, 1), filtered pages, its triggers, a fire, a wrong Number, a wrong token. Resolves to the number of exchanges per operation and status. */
async function session(base: string): Promise<Record<string, Record<string, number>>> {
  const counts: Record<string, Record<string, number>> = {};
  const count = (operation: string, status: number) => {
    counts[operation] ??= {};
    counts[operation][status] = (counts[operation][status] ?? 0) + 1;
  };
  // The first page without pageIndex or pageSize (the service's defaults show), then every page.
  let page = (await (await call(base, searchPath({}))).json()) as ConversationPage;
  count("searchConversations", 200);
  while (page.hasMore) {
    page = (await (await call(base, searchPath({ pageIndex: page.pageIndex + 1, pageSize: 3 }))).json()) as ConversationPage;
    count("searchConversations", 200);
  }
  for (const query of [{ status: "Closed" }, { channelId: "directline", pageSize: 10 }]) {
    expect((await call(base, searchPath(query))).status).toBe(200);
    count("searchConversations", 200);
  }
  expect((await call(base, `/api/v1/runtime/simple/external/events/${realBot}`)).status).toBe(200);
  count("listExternalEventTriggers", 200);
  const fire = (amount: unknown) =>
    call(base, "/api/v1/runtime/simple/external/events", {
      method: "POST",
      body: JSON.stringify({ conversationId: "c-03", externalEventId: "order-shipped", externalEventPayload: { orderNumber: "A-1", amount } }),
    });
  expect((await fire(12.5)).status).toBe(200);
  count("fireExternalEvent", 200);
  expect((await fire("lots")).status).toBe(500);
  count("fireExternalEvent", 500);
  expect((await call(base, searchPath({ status: "Active" }), { token: "a-wrong-token-from-a-script", extra: otherCredentials })).status).toBe(401);
  count("searchConversations", 401);
  return counts;
}

/** Every file under `dir`, as text. */
async function filesOf(dir: string): Promise<string> {
  const names = await readdir(dir);
  return (await Promise.all(names.map((name) => readFile(join(dir, name), "utf8")))).join("\n");
}

let service: Awaited<ReturnType<typeof startRealService>>;
beforeAll(async () => {
  service = await startRealService();
});
afterAll(async () => {
  await service.close();
});

describe("record: a transparent proxy in front of a real service", () => {
  it("answers the upstream's status, headers and body byte for byte", async () => {
    const recorder = await startRecorder({ upstream: service.url, out: await newDir(), salt: "s" });
    try {
      const requests: [string, RequestInit & { token?: string }][] = [
        [searchPath({ pageSize: 2 }), {}],
        [searchPath({ status: "Weird" }), {}],
        [`/api/v1/runtime/simple/external/events/${realBot}`, {}],
        ["/api/v1/runtime/simple/external/events/nobody", {}],
        ["/api/v1/runtime/simple/external/events", { method: "POST", body: JSON.stringify({ conversationId: "c-01", externalEventId: "call-back" }) }],
        [searchPath({}), { token: "wrong" }],
      ];
      for (const [path, init] of requests) {
        const direct = await call(service.url, path, init);
        const proxied = await call(recorder.url, path, init);
        expect(proxied.status).toBe(direct.status);
        expect(proxied.statusText).toBe(direct.statusText);
        const endToEnd = (response: Response) => [...response.headers].filter(([name]) => !["connection", "keep-alive", "transfer-encoding"].includes(name));
        expect(endToEnd(proxied)).toEqual(endToEnd(direct));
        expect(Buffer.from(await proxied.arrayBuffer())).toEqual(Buffer.from(await direct.arrayBuffer()));
      }
    } finally {
      await recorder.stop();
    }
  });

  it("answers 502 with a problem body when the upstream does not answer, and keeps serving", async () => {
    const silent = await listenOnLoopback(createServer(() => undefined));
    const out = await newDir();
    const recorder = await startRecorder({ upstream: silent.url, out, timeoutMs: 300 });
    try {
      const response = await call(recorder.url, searchPath({}));
      expect(response.status).toBe(502);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(await response.json()).toMatchObject({ status: 502, detail: expect.stringContaining("did not answer") });
      expect((await call(recorder.url, searchPath({}))).status).toBe(502);
    } finally {
      await silent.close();
    }
    const report = JSON.parse(await readFile(join((await recorder.stop(), out), "report.json"), "utf8")) as RecordReport;
    expect(report).toEqual({ operations: {}, problems: [], findings: [], notRecorded: { triggerLists: [] } });
  });

  it("ends a client that stalls in its request within --timeout, and keeps serving others", async () => {
    const recorder = await startRecorder({ upstream: service.url, out: await newDir(), timeoutMs: 500 });
    try {
      const { port } = new URL(recorder.url);
      const socket = connect(Number(port), "127.0.0.1");
      await once(socket, "connect");
      // Headers begun, never finished: the recorder must not wait for the rest forever.
      socket.write("GET /api/v2/channels/conversations HTTP/1.1\r\nHost: 127.0.0.1\r\nX-To");
      let answer = "";
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
      await once(socket, "close");
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect((await call(recorder.url, searchPath({ pageSize: 1 }))).status).toBe(200);
    } finally {
      await recorder.stop();
    }
  });

  it("forwards to an HTTPS upstream whose CA it is given, and answers 502 for one it cannot trust", async () => {
    const dir = await newDir();
    const { key, cert } = await selfSignedCertificate();
    const secure = await startRealService({ tls: { key, cert } });
    const trusting = await startRecorder({ upstream: secure.url, out: join(dir, "trusting"), ca: cert });
    const untrusting = await startRecorder({ upstream: secure.url, out: join(dir, "untrusting") });
    try {
      const page = await call(trusting.url, searchPath({ pageSize: 2 }));
      expect(page.status).toBe(200);
      expect(((await page.json()) as ConversationPage).totalItemCount).toBe(realConversations.length);
      const refused = await call(untrusting.url, searchPath({}));
      expect(refused.status).toBe(502);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/certificate/i);
    } finally {
      await trusting.stop();
      await untrusting.stop();
      await secure.close();
    }
  });
});

describe("record: an upstream that closes a kept-alive connection as a request goes out on it", () => {
  it("sends a GET once more on a new connection, and never a POST twice (a 502 instead)", async () => {
    // The second request of each connection finds it closed (as an upstream's idle timeout closes it).
    const served = new WeakMap<object, number>();
    const received: string[] = [];
    const upstream = await listenOnLoopback(
      createServer((request, response) => {
        const count = (served.get(request.socket) ?? 0) + 1;
        served.set(request.socket, count);
        received.push(`${request.method} ${count}`);
        if (count === 2) return void request.socket.destroy();
        request.resume();
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      }),
    );
    const recorder = await startRecorder({ upstream: upstream.url, out: await newDir(), salt: "s" });
    try {
      expect((await call(recorder.url, searchPath({}))).status).toBe(200);
      expect((await call(recorder.url, searchPath({}))).status).toBe(200);
      const fire = await call(recorder.url, "/api/v1/runtime/simple/external/events", { method: "POST", body: "{}" });
      expect(fire.status).toBe(502);
      expect(received).toEqual(["GET 1", "GET 2", "GET 1", "POST 2"]);
    } finally {
      await recorder.stop();
      await upstream.close();
    }
  });
});

describe("record: bad usage", () => {
  it("refuses a missing upstream, a URL with a password (never quoted), a bad port or pointer with exit 2, and a busy port with exit 1", async () => {
    const out = await newDir();
    expect(await runCli(["record", "--out", out])).toMatchObject({ code: 2, stderr: expect.stringContaining("--upstream <url>") });
    const withPassword = await runCli(["record", "--upstream", "https://user:hunter2-secret@bots.example.com", "--out", out]);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain("--upstream: a URL with a user name or a password is refused");
    expect(withPassword.stderr).not.toContain("hunter2-secret");
    expect(await runCli(["record", "--upstream", service.url, "--out", out, "--port", "http"])).toMatchObject({
      code: 2,
      stderr: 'error: --port: expected an integer from 0 to 65535; got "http"\n',
    });
    expect(await runCli(["record", "--upstream", service.url, "--out", out, "--personal", "members.name"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--personal: expected a JSON pointer"),
    });
    const busy = await listenOnLoopback(createServer());
    try {
      const result = await runCli(["record", "--upstream", service.url, "--out", out, "--port", new URL(busy.url).port, "--salt", "s"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("EADDRINUSE");
    } finally {
      await busy.close();
    }
  });
});

describe("record: a session through the command, stopped by a signal", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`writes no token and no end user's words or names anywhere, counts every exchange, exits 0 on ${signal}`, async () => {
      const out = await newDir();
      const child = spawn(process.execPath, [binPath, "record", "--upstream", service.url, "--out", out, "--port", "0", "--salt", "team-salt"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const ready = new Promise<string>((resolve) =>
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const url = /Recorder ready at (\S+)/.exec(stdout)?.[1];
          if (url) resolve(url);
        }),
      );
      const exited = once(child, "exit");
      const counts = await session(await ready);
      child.kill(signal);
      const [code] = (await exited) as [number];
      expect(code).toBe(0);
      expect(stdout).toContain(`into ${out}`);
      const everything = `${await filesOf(out)}\n${stdout}\n${stderr}`;
      for (const secret of [realToken, "a-wrong-token-from-a-script", "authorization-secret-42", "cookie-secret-77", ...personalWords])
        expect(everything).not.toContain(secret);
      const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as RecordReport;
      const exchanges = Object.fromEntries(
        Object.entries(report.operations).map(([operation, statuses]) => [
          operation,
          Object.fromEntries(Object.entries(statuses).map(([status, c]) => [status, c.exchanges])),
        ]),
      );
      // An exchange the recorder did not count says why on its stderr (a 502 is logged there, never counted).
      expect(exchanges, stderr).toEqual(counts);
      expect(report.operations["searchConversations"]?.["200"]?.invalid).toBe(0);
      expect(await readFile(join(out, "report.md"), "utf8")).toContain("| `searchConversations` | 200 |");
    });
  }
});

describe("record: the report of a deviating upstream", () => {
  it("names the operation, the status and a pointer to the field for a wrong enum spelling and a member without role", async () => {
    const deviating = await startRealService({ deviate: true });
    const out = await newDir();
    const recorder = await startRecorder({ upstream: deviating.url, out, salt: "s" });
    try {
      await call(recorder.url, searchPath({ pageSize: 5 }));
      await call(recorder.url, "/api/v1/runtime/simple/external/events/moved", { redirect: "manual" });
    } finally {
      await recorder.stop();
      await deviating.close();
    }
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as RecordReport;
    expect(report.operations).toEqual({
      searchConversations: { "200": { exchanges: 1, invalid: 1 } },
      listExternalEventTriggers: { "302": { exchanges: 1, invalid: 1 } },
    });
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operationId: "searchConversations", status: 200, pointer: "/items/*/status", count: 1 }),
        expect.objectContaining({ operationId: "searchConversations", status: 200, pointer: "/items/*/members/*/role", count: 1 }),
        // A status the description does not document for the operation.
        expect.objectContaining({ operationId: "listExternalEventTriggers", status: 302, message: expect.stringContaining("status_code_conformance") }),
      ]),
    );
    // A field the description does not list, where it allows more: a finding, listed beside the problems, not what made the exchange invalid.
    expect(report.findings).toContainEqual({
      operationId: "searchConversations",
      status: 200,
      pointer: "/items/*/sentiment",
      message: "a field the description does not list",
      count: 1,
    });
  });
});

/** Every conversation of a search, page by page, with the first page's total. */
async function walk(fetcher: (path: string) => Promise<Response>, query: Record<string, string>, first: number) {
  const ids: string[] = [];
  let total = -1;
  for (let pageIndex = first; ; pageIndex++) {
    const page = (await (await fetcher(searchPath({ ...query, pageIndex, pageSize: 2 }))).json()) as ConversationPage;
    if (total < 0) total = page.totalItemCount;
    ids.push(...page.items.map((item) => item.id));
    if (!page.hasMore) return { ids: ids.sort(), total };
  }
}

describe("record: the recording replayed by the sandbox", () => {
  let out: string;
  let switches: Partial<SandboxSwitches>;
  beforeAll(async () => {
    out = await newDir();
    const recorder = await startRecorder({ upstream: service.url, out, salt: "replay-salt" });
    await session(recorder.url);
    await recorder.stop();
    switches = JSON.parse(await readFile(join(out, "switches.json"), "utf8")) as Partial<SandboxSwitches>;
  });

  it("writes the open points the traffic showed as the sandbox's switches, each with its exchange", async () => {
    expect(switches).toEqual({
      triggerList: "array",
      defaultPageSize: 3,
      maxPageSize: 5,
      pageBase: 1,
      inboundDirection: "Incoming",
      errorMediaType: "application/problem+json",
    });
    const evidence = JSON.parse(await readFile(join(out, "open-points.json"), "utf8")) as Record<string, { exchange: string }>;
    expect(evidence["pageBase"]?.exchange).toBe(`GET /api/v2/channels/conversations?agentStageId=${realBot} → 200`);
    expect(evidence["maxPageSize"]?.exchange).toContain("pageSize=10");
  });

  it("answers searches never recorded with the upstream's conversations and totalItemCount", async () => {
    const sandbox = await createSandbox({ fixture: join(out, "fixture.json"), ...switches });
    try {
      const replay = (path: string) => sandbox.fetch(`http://sandbox${path}`, { headers: { "X-Token": "sandbox-token" } });
      const direct = (path: string) => call(service.url, path);
      const period = { startFromDate: "2026-03-02T10:00:00Z", startToDate: "2026-03-07T16:00:00Z" };
      for (const query of [
        { status: "Active" },
        { channelId: "platform" },
        period,
        { ...period, status: "Closed", channelId: "messenger_b" },
        { latestMessageFromDate: "2026-03-04T06:00:00Z" },
      ]) {
        const expected = await walk(direct, query, 1);
        expect(expected.ids).toEqual(
          matching(new URLSearchParams(query))
            .map((item) => item.id)
            .sort(),
        );
        expect(await walk(replay, query, 1)).toEqual(expected);
      }
    } finally {
      await sandbox.close();
    }
  });

  it("keeps every conversation's fields (instants as instants; end users' words as their pseudonyms), the triggers as listed, and the fire rules", async () => {
    const sandbox = await createSandbox({ fixture: join(out, "fixture.json"), ...switches });
    try {
      const replay = (path: string, init: RequestInit = {}) =>
        sandbox.fetch(`http://sandbox${path}`, { ...init, headers: { "X-Token": "sandbox-token", "Content-Type": "application/json" } });
      const items: ConversationSummary[] = [];
      for (let pageIndex = 1; ; pageIndex++) {
        const page = (await (await replay(searchPath({ pageIndex, pageSize: 5 }))).json()) as ConversationPage;
        items.push(...page.items);
        if (!page.hasMore) break;
      }
      const name = (value: string | null) => (value === null ? null : pseudonymOf("replay-salt", "name", value));
      const expected = realConversations.map((item) => ({
        ...item,
        startedOn: Date.parse(item.startedOn),
        latestMessageOn: Date.parse(item.latestMessageOn),
        latestMessageText: pseudonymOf("replay-salt", "text", item.latestMessageText),
        members: item.members.map((member) => ({ ...member, name: name(member.name), nickname: null })),
        channelData: item.channelData && {
          ...item.channelData,
          platform: {
            ...item.channelData.platform,
            client: { ...item.channelData.platform.client, userName: name(item.channelData.platform.client.userName) },
          },
        },
      }));
      const replayed = items.map((item) => ({ ...item, startedOn: Date.parse(item.startedOn), latestMessageOn: Date.parse(item.latestMessageOn) }));
      expect(replayed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected.sort((a, b) => a.id.localeCompare(b.id)));
      expect(await (await replay(`/api/v1/runtime/simple/external/events/${realBot}`)).json()).toEqual(realTriggers satisfies ExternalEventTrigger[]);
      const fire = (amount: unknown) =>
        replay("/api/v1/runtime/simple/external/events", {
          method: "POST",
          body: JSON.stringify({ conversationId: "c-05", externalEventId: "order-shipped", externalEventPayload: { orderNumber: "B-2", amount } }),
        });
      const upstreamRefusal = await call(service.url, "/api/v1/runtime/simple/external/events", {
        method: "POST",
        body: JSON.stringify({ conversationId: "c-05", externalEventId: "order-shipped", externalEventPayload: { amount: "x" } }),
      });
      expect((await fire(3)).status).toBe(200);
      expect((await fire("x")).status).toBe(upstreamRefusal.status);
    } finally {
      await sandbox.close();
    }
  });
});

describe("record: the recording served by the sandbox's own command", () => {
  it("bot-conversation-sandbox --fixture with the switches' flags answers a search never recorded as the upstream does", async () => {
    const out = await newDir();
    const recorder = await startRecorder({ upstream: service.url, out, salt: "bin-salt" });
    await session(recorder.url);
    await recorder.stop();
    const evidence = JSON.parse(await readFile(join(out, "open-points.json"), "utf8")) as Record<string, { flag: string; value: string | number }>;
    const flags = Object.values(evidence).flatMap(({ flag, value }) => [flag, String(value)]);
    const sandbox = await launchSandbox(["--fixture", join(out, "fixture.json"), ...flags]);
    try {
      const query = { channelId: "directline", latestMessageToDate: "2026-03-06T00:00:00Z" };
      const replayed = await walk((path) => call(sandbox.url, path, { token: "sandbox-token" }), query, 1);
      expect(replayed).toEqual(await walk((path) => call(service.url, path), query, 1));
      expect(replayed.ids).toEqual(["c-01", "c-04"]);
      // No pageSize: the service's default page size, as recorded.
      expect(((await (await call(sandbox.url, searchPath({}), { token: "sandbox-token" })).json()) as ConversationPage).pageSize).toBe(3);
    } finally {
      await sandbox.stop();
    }
  });
});

describe("record: deterministic files", () => {
  it("gives the same fixture for the same session and salt, and other pseudonyms with the same ids for another salt", async () => {
    const record = async (salt: string) => {
      const out = await newDir();
      const recorder = await startRecorder({ upstream: service.url, out, salt });
      await session(recorder.url);
      await recorder.stop();
      const names = (await readdir(out)).sort();
      expect(names).toEqual(["exchanges.har", "exchanges.ndjson", "fixture.json", "open-points.json", "report.json", "report.md", "switches.json"]);
      // The journal and the HAR say how long each exchange took: the same lines but for the durations.
      const text = async (name: string) => {
        const content = await readFile(join(out, name), "utf8");
        return name === "exchanges.ndjson" || name === "exchanges.har" ? content.replace(/"(durationMs|time|wait)":\d+/g, '"$1":0') : content;
      };
      const files = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await text(name)] as const)));
      return { fixture: files["fixture.json"]!, report: files["report.json"]!, files };
    };
    const first = await record("salt-a");
    const again = await record("salt-a");
    const other = await record("salt-b");
    // Every file, byte for byte, though each recording is in a folder of its own.
    expect(again.files).toEqual(first.files);
    expect(other.report).toBe(first.report);
    expect(other.files["switches.json"]).toBe(first.files["switches.json"]);
    expect(other.files["exchanges.ndjson"]).not.toBe(first.files["exchanges.ndjson"]);
    expect(other.files["exchanges.har"]).not.toBe(first.files["exchanges.har"]);
    expect(other.fixture).not.toBe(first.fixture);
    const ids = (text: string) =>
      (JSON.parse(text) as { conversations: { conversation: { id: string } }[] }).conversations.map((entry) => entry.conversation.id);
    expect(ids(other.fixture)).toEqual(ids(first.fixture));
    expect(ids(first.fixture)).toEqual(realConversations.map((item) => item.id).sort());
    const texts = (text: string) =>
      (JSON.parse(text) as { conversations: { conversation: { history: { text: string }[] } }[] }).conversations.map(
        (entry) => entry.conversation.history.at(-1)?.text,
      );
    expect(texts(other.fixture)).not.toEqual(texts(first.fixture));
  });
});

describe("record: the README's session, from recording to replay in a test", () => {
  it("runs as written: the sh block records the service, the ts block replays it with a search nobody recorded", async () => {
    const packageDir = fileURLToPath(new URL("..", import.meta.url));
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## record:"), readme.indexOf("## Completion"));
    const shell = /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
    const replay = /^```ts\n([\s\S]*?)^```$/m.exec(section)?.[1];
    if (!shell || !replay) throw new Error("the README's record section lost its sh or ts block");
    const cwd = await newDir();
    await writeFile(join(cwd, "bot-conversation"), `#!/bin/sh\nexec "${process.execPath}" "${binPath}" "$@"\n`);
    await chmod(join(cwd, "bot-conversation"), 0o755);
    const run = promisify(execFile);
    const recorded = await run("bash", ["-c", `set -euo pipefail\n${shell.replaceAll("http://127.0.0.1:4011", service.url)}`], {
      cwd,
      env: { PATH: `${cwd}:${process.env["PATH"]}`, HOME: cwd, BOT_CONVERSATION_TOKEN: realToken },
    });
    expect(recorded.stdout).toContain("# Recording report");
    expect(recorded.stdout).toContain("| `searchConversations` | 200 | 4 | 0 |");
    // The ts block, run by Node from inside the package (so its imports resolve), in the folder of the recording.
    const script = join(packageDir, `readme-record-example-${process.pid}.tmp.ts`);
    await writeFile(script, replay);
    try {
      const replayed = await run(process.execPath, [script], { cwd });
      const expected = matching(new URLSearchParams({ status: "Closed", channelId: "platform" }));
      expect(replayed.stdout.trim()).toBe(`${expected.length} ${expected.map((item) => item.id).join(",")}`);
      expect(expected.length).toBeGreaterThan(0);
    } finally {
      await rm(script);
    }
  });
});
