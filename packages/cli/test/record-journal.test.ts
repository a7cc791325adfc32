import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listenOnLoopback } from "@bot-conversation/test-support/loopback";
import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JournalEntry } from "../src/record/journal.ts";
import { startRecorder } from "../src/record/recorder.ts";
import type { RecordReport } from "../src/record/report.ts";
import { binPath, runCli } from "./support/cli.ts";
import { personalWords, realBot, realToken, startRealService } from "./support/real-service.ts";

const newDir = () => mkdtemp(join(tmpdir(), "record-journal-"));

const derived = ["exchanges.har", "fixture.json", "open-points.json", "report.json", "report.md", "switches.json"];

let service: Awaited<ReturnType<typeof startRealService>>;
beforeAll(async () => {
  service = await startRealService();
});
afterAll(async () => {
  await service.close();
});

/** The recorder as a process: its URL once ready, its output so far, and its exit. */
async function recorderProcess(args: readonly string[]) {
  const child = spawn(process.execPath, [binPath, "record", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const output = { stdout: "", stderr: "" };
  child.stderr!.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output.stdout += chunk.toString();
      const found = /Recorder ready at (\S+)/.exec(output.stdout)?.[1];
      if (found) resolve(found);
    });
    void exited.then(([code]) => reject(new Error(`the recorder exited (${code}) before it was ready: ${output.stderr}`)));
  });
  return { child: child as ChildProcess, url, output, exited };
}

/** The journal's lines, parsed. */
async function journalOf(dir: string): Promise<JournalEntry[]> {
  const text = await readFile(join(dir, "exchanges.ndjson"), "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalEntry);
}

/** Waits until the journal holds `count` lines (each is appended just after its answer is sent). */
async function journalReaches(dir: string, count: number): Promise<JournalEntry[]> {
  const deadline = Date.now() + hangGuardMs(10_000);
  for (;;) {
    const entries = await journalOf(dir);
    if (entries.length >= count) return entries;
    if (Date.now() > deadline) throw new Error(`the journal holds ${entries.length} of ${count} exchanges`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const searchPath = (query: Record<string, string>) => `/api/v2/channels/conversations?${new URLSearchParams({ agentStageId: realBot, ...query })}`;

/** A few exchanges of a client: searches, the trigger list, a fire refused for its Number; resolves to their paths and statuses in order. */
async function someTraffic(base: string): Promise<[string, number][]> {
  const sent: [string, number][] = [];
  for (const [path, init] of [
    [searchPath({}), {}],
    [searchPath({ pageIndex: "2", pageSize: "3" }), {}],
    [`/api/v1/runtime/simple/external/events/${realBot}`, {}],
    [
      "/api/v1/runtime/simple/external/events",
      { method: "POST", body: JSON.stringify({ conversationId: "c-03", externalEventId: "order-shipped", externalEventPayload: { amount: "lots" } }) },
    ],
  ] as const) {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: { "X-Token": realToken, Cookie: "sid=cookie-secret-77", ...("body" in init ? { "Content-Type": "application/json" } : {}) },
    });
    await response.arrayBuffer();
    sent.push([path.split("?")[0]!, response.status]);
  }
  return sent;
}

describe("record: the journal, written as it goes", () => {
  it("keeps every completed exchange through a SIGKILL, and --rebuild writes every derived file from it, valid", async () => {
    const out = await newDir();
    const recorder = await recorderProcess(["--upstream", service.url, "--out", out, "--port", "0", "--salt", "kill-salt", "--quiet"]);
    const sent = await someTraffic(recorder.url);
    const entries = await journalReaches(out, sent.length);
    recorder.child.kill("SIGKILL");
    const [, signal] = await recorder.exited;
    expect(signal).toBe("SIGKILL");
    expect(entries.map((entry) => [entry.request.path, entry.response.status])).toEqual(sent);
    const journal = await readFile(join(out, "exchanges.ndjson"), "utf8");
    for (const secret of [realToken, "cookie-secret-77", ...personalWords]) expect(journal).not.toContain(secret);
    // Nothing was derived before the kill; the lock and the scratch file of the dead recorder are still there (the next recorder of the folder removes them).
    expect((await readdir(out)).filter((name) => !/^\.[a-z-]+\.\d+\.tmp$/.test(name)).sort()).toEqual([".recorder.lock", "exchanges.ndjson"]);

    const rebuilt = await runCli(["record", "--rebuild", "--out", out]);
    expect(rebuilt).toMatchObject({ code: 0, stdout: expect.stringContaining(`Rebuilt ${sent.length} exchanges into ${out}`) });
    expect((await readdir(out)).sort()).toEqual([...derived, "exchanges.ndjson"].sort());
    const files: Record<string, string> = {};
    for (const name of derived) files[name] = await readFile(join(out, name), "utf8");
    for (const name of derived.filter((file) => file.endsWith(".json"))) expect(() => JSON.parse(files[name]!)).not.toThrow();
    const report = JSON.parse(files["report.json"]!) as RecordReport;
    expect(report.operations["searchConversations"]?.["200"]?.exchanges).toBe(2);
    expect(report.operations["fireExternalEvent"]?.["500"]?.exchanges).toBe(1);
    const fixture = JSON.parse(files["fixture.json"]!) as { bots: { agentStageId: string }[]; conversations: unknown[] };
    expect(fixture.bots.map((bot) => bot.agentStageId)).toEqual([realBot]);
    expect(fixture.conversations).toHaveLength(6);
    expect(JSON.parse(files["switches.json"]!)).toMatchObject({ pageBase: 1, defaultPageSize: 3 });
  });

  it("refuses a folder that holds a recording (naming it and --append), and --append continues it", async () => {
    const out = await newDir();
    const first = await startRecorder({ upstream: service.url, out, salt: "s" });
    await someTraffic(first.url);
    await first.stop();
    const again = await runCli(["record", "--upstream", service.url, "--out", out, "--port", "0", "--salt", "s"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`error: --out ${out}: already holds a recording (exchanges.ndjson); pass --append to continue it, or give another folder\n`);

    const appended = await startRecorder({ upstream: service.url, out, salt: "s", append: true });
    await someTraffic(appended.url);
    const result = await appended.stop();
    expect(result.exchanges).toBe(8);
    expect(await journalOf(out)).toHaveLength(8);
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as RecordReport;
    expect(report.operations["searchConversations"]?.["200"]?.exchanges).toBe(4);
    expect((await readdir(out)).sort()).toEqual([...derived, "exchanges.ndjson"].sort());
  });

  it("refuses an --out that is a file or a symbolic link, and a folder another live recorder holds; takes over a stale lock", async () => {
    const dir = await newDir();
    await writeFile(join(dir, "a-file"), "x");
    expect(await runCli(["record", "--upstream", service.url, "--out", join(dir, "a-file"), "--salt", "s"])).toMatchObject({
      code: 1,
      stderr: `error: --out ${join(dir, "a-file")}: is a file; expected a folder for the recording\n`,
    });
    await mkdir(join(dir, "real"));
    await symlink(join(dir, "real"), join(dir, "link"));
    expect(await runCli(["record", "--upstream", service.url, "--out", join(dir, "link")])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`--out ${join(dir, "link")}: is a symbolic link`),
    });
    expect(await readdir(join(dir, "real"))).toEqual([]);

    const held = join(dir, "held");
    const running = await recorderProcess(["--upstream", service.url, "--out", held, "--port", "0", "--quiet"]);
    try {
      const second = await runCli(["record", "--upstream", service.url, "--out", held, "--port", "0", "--append"]);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`another recorder (pid ${running.child.pid}) is using it`);
    } finally {
      running.child.kill("SIGTERM");
      expect((await running.exited)[0]).toBe(0);
    }

    // A lock whose process is gone (a recorder killed): taken over.
    const gone = spawn(process.execPath, ["-e", ""]);
    await once(gone, "exit");
    const stale = join(dir, "stale");
    await mkdir(stale);
    await writeFile(join(stale, ".recorder.lock"), `${gone.pid}\n`);
    const recorder = await startRecorder({ upstream: service.url, out: stale });
    await recorder.stop();
    expect((await readdir(stale)).sort()).toEqual([...derived, "exchanges.ndjson"].sort());
  });

  it("a second stop signal while the files are written does not cut them", async () => {
    const out = await newDir();
    const recorder = await recorderProcess(["--upstream", service.url, "--out", out, "--port", "0", "--quiet"]);
    const sent = await someTraffic(recorder.url);
    await journalReaches(out, sent.length);
    recorder.child.kill("SIGTERM");
    recorder.child.kill("SIGINT");
    recorder.child.kill("SIGINT");
    const [code] = await recorder.exited;
    expect(code).toBe(0);
    expect((await readdir(out)).sort()).toEqual([...derived, "exchanges.ndjson"].sort());
    for (const name of derived.filter((file) => file.endsWith(".json"))) JSON.parse(await readFile(join(out, name), "utf8"));
  });
});

describe("record: redaction by structure", () => {
  it("an upstream answering Set-Cookie: v=1 leaves every file valid JSON with its values; a secret body field is removed where it stands", async () => {
    const upstream = await listenOnLoopback(
      createServer((request, response) => {
        request.resume();
        response.setHeader("Set-Cookie", "v=1");
        if (request.method === "POST") {
          response.writeHead(200).end();
          return;
        }
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end(
          JSON.stringify({
            items: [],
            hasMore: false,
            pageIndex: 1,
            pageSize: 1,
            totalItemCount: 0,
            totalPageCount: 0,
            fromItemInclusive: 0,
            toItemExclusive: 0,
          }),
        );
      }),
    );
    const out = await newDir();
    try {
      const recorder = await startRecorder({ upstream: upstream.url, out, salt: "s" });
      await (
        await fetch(`${recorder.url}/api/v2/channels/conversations?channelId=1&access_token=query-secret-1`, { headers: { "X-Token": "t" } })
      ).arrayBuffer();
      await (
        await fetch(`${recorder.url}/api/v1/runtime/simple/external/events`, {
          method: "POST",
          headers: { "X-Token": "t", "Content-Type": "application/json" },
          body: JSON.stringify({ conversationId: "c-1", externalEventId: "e-1", externalEventPayload: { note: "1 t", apiKey: "body-secret-2" } }),
        })
      ).arrayBuffer();
      await recorder.stop();
    } finally {
      await upstream.close();
    }
    const files = Object.fromEntries(await Promise.all((await readdir(out)).map(async (name) => [name, await readFile(join(out, name), "utf8")] as const)));
    for (const [name, text] of Object.entries(files)) {
      expect(text).not.toContain("[redacted]]");
      expect(text).not.toContain("query-secret-1");
      expect(text).not.toContain("body-secret-2");
      if (name.endsWith(".json")) JSON.parse(text);
    }
    expect(JSON.parse(files["switches.json"]!)).toEqual({ pageBase: 1, defaultPageSize: 1 });
    const [search, fire] = files["exchanges.ndjson"]!.split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as JournalEntry);
    expect(search!.request.query).toEqual({ channelId: "1" });
    expect(search!.response.headers.map(([name]) => name.toLowerCase())).not.toContain("set-cookie");
    expect(search!.response.body).toMatchObject({ json: { pageIndex: 1, pageSize: 1 } });
    // The body field is removed where it stands; the same characters as the token elsewhere ("1 t") are data.
    expect(fire!.request.body).toEqual({
      json: { conversationId: "c-1", externalEventId: "e-1", externalEventPayload: { note: "1 t", apiKey: "[redacted]" } },
    });
    expect(fire!.request.headers.map(([name]) => name.toLowerCase())).not.toContain("x-token");
  });
});
