import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSandbox, launchSandbox } from "@bot-conversation/sandbox";
import { launchChromium } from "@bot-conversation/test-support/browser";
import type { ConversationPage } from "@bot-conversation/types";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRecorder } from "../src/record/recorder.ts";
import type { RecordReport } from "../src/record/report.ts";
import { runCli } from "./support/cli.ts";
import { personalWords, realBot, realToken, startRealService } from "./support/real-service.ts";

const newDir = () => mkdtemp(join(tmpdir(), "record-har-"));

/** A HAR file, as far as the tests read it. */
interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: {
      startedDateTime: string;
      time: number;
      request: { method: string; url: string; headers: { name: string; value: string }[]; postData?: { text: string } } & Record<string, unknown>;
      response: { status: number; content: { size: number; mimeType: string; text?: string } } & Record<string, unknown>;
      cache: object;
      timings: { send: number; wait: number; receive: number };
    }[];
  };
}

const searchPath = (query: Record<string, string>) => `/api/v2/channels/conversations?${new URLSearchParams({ agentStageId: realBot, ...query })}`;

/** A recording of the real service (stopped once recorded): searches, the trigger list, a fire refused; its folder and the service's URL. */
async function recordReal(): Promise<{ service: { url: string }; out: string }> {
  const service = await startRealService();
  const out = await newDir();
  try {
    await recordSession(service.url, out);
  } finally {
    await service.close();
  }
  return { service, out };
}

/** The session recorded through a recorder in front of `upstream` into `out`. */
async function recordSession(upstream: string, out: string): Promise<void> {
  const recorder = await startRecorder({ upstream, out, salt: "har-salt" });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${recorder.url}${path}`, { ...init, headers: { "X-Token": realToken, "Content-Type": "application/json" } }).then((response) =>
      response.arrayBuffer(),
    );
  await call(searchPath({}));
  await call(searchPath({ pageIndex: "2", pageSize: "3" }));
  await call(`/api/v1/runtime/simple/external/events/${realBot}`);
  await call("/api/v1/runtime/simple/external/events", {
    method: "POST",
    body: JSON.stringify({ conversationId: "c-03", externalEventId: "order-shipped", externalEventPayload: { amount: "lots" } }),
  });
  await recorder.stop();
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser.close();
});

describe("record: HAR both ways", () => {
  it("writes exchanges.har (HAR 1.2, secret-free), and --from-har of it gives the same report, switches and conversations", async () => {
    const { service, out } = await recordReal();
    const text = await readFile(join(out, "exchanges.har"), "utf8");
    for (const secret of [realToken, ...personalWords]) expect(text).not.toContain(secret);
    const har = JSON.parse(text) as Har;
    expect(har.log.version).toBe("1.2");
    expect(har.log.creator.name).toBe("bot-conversation record");
    expect(har.log.entries.map((entry) => [entry.request.method, entry.request.url.replace(service.url, ""), entry.response.status])).toEqual([
      ["GET", searchPath({}), 200],
      ["GET", searchPath({ pageIndex: "2", pageSize: "3" }), 200],
      ["GET", `/api/v1/runtime/simple/external/events/${realBot}`, 200],
      ["POST", "/api/v1/runtime/simple/external/events", 500],
    ]);
    for (const entry of har.log.entries) {
      // The fields HAR 1.2 requires of an entry, its request and its response.
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(["startedDateTime", "time", "request", "response", "cache", "timings"]));
      expect(Object.keys(entry.request)).toEqual(
        expect.arrayContaining(["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"]),
      );
      expect(Object.keys(entry.response)).toEqual(
        expect.arrayContaining(["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"]),
      );
      expect(entry.request.headers.map((header) => header.name.toLowerCase())).not.toContain("x-token");
    }
    expect(JSON.parse(har.log.entries[3]!.request.postData!.text)).toMatchObject({ externalEventId: "order-shipped" });

    const again = await newDir();
    const result = await runCli(["record", "--from-har", join(out, "exchanges.har"), "--out", again, "--salt", "other"]);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining(`Recorded 4 exchanges from ${join(out, "exchanges.har")} into ${again}`) });
    const read = async (dir: string, name: string) => JSON.parse(await readFile(join(dir, name), "utf8")) as unknown;
    expect(await read(again, "report.json")).toEqual(await read(out, "report.json"));
    expect(await read(again, "switches.json")).toEqual(await read(out, "switches.json"));
    const ids = async (dir: string) =>
      ((await read(dir, "fixture.json")) as { conversations: { conversation: { id: string } }[] }).conversations.map((entry) => entry.conversation.id);
    expect(await ids(again)).toEqual(await ids(out));
    expect(await runCli(["record", "--from-har", join(again, "missing.har"), "--out", await newDir()])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --from-har: no such file /),
    });
  });

  it("routeFromHAR serves exchanges.har in Chromium, the service gone", async () => {
    const { service, out } = await recordReal();
    const journal = (await readFile(join(out, "exchanges.ndjson"), "utf8")).split("\n").filter(Boolean);
    const recorded = JSON.parse(journal[0]!) as { response: { body: { json: ConversationPage } } };
    const context = await browser.newContext();
    try {
      await context.routeFromHAR(join(out, "exchanges.har"), { notFound: "abort" });
      const page = await context.newPage();
      const response = await page.goto(`${service.url}${searchPath({})}`);
      expect(response?.status()).toBe(200);
      expect(await response?.json()).toEqual(recorded.response.body.json);
    } finally {
      await context.close();
    }
  });

  it("a HAR Playwright recorded from a browser session against the sandbox: its fixture's replay answers those searches as the sandbox did", async () => {
    const sandbox = await launchSandbox(["--conversations", "30", "--seed", "har-session"]);
    const harPath = join(await newDir(), "session.har");
    const searches = [{ pageSize: "50" }, { status: "Closed", pageSize: "50" }, { channelId: "directline", pageSize: "50" }];
    const answered: ConversationPage[] = [];
    try {
      const context = await browser.newContext({ recordHar: { path: harPath, content: "embed" } });
      const page = await context.newPage();
      // A page of the sandbox's own origin (its 401 without a token), whose script then searches with the token.
      await page.goto(`${sandbox.url}/api/v2/channels/conversations`);
      for (const query of searches)
        answered.push(
          await page.evaluate(
            async (path) => (await fetch(path, { headers: { "X-Token": "sandbox-token" } })).json() as Promise<ConversationPage>,
            `/api/v2/channels/conversations?${new URLSearchParams(query)}`,
          ),
        );
      await context.close();
    } finally {
      await sandbox.stop();
    }
    const out = await newDir();
    expect(await runCli(["record", "--from-har", harPath, "--out", out, "--salt", "s"])).toMatchObject({ code: 0 });
    const report = JSON.parse(await readFile(join(out, "report.json"), "utf8")) as RecordReport;
    expect(report.operations["searchConversations"]).toEqual({ "200": { exchanges: 3, invalid: 0 }, "401": { exchanges: 1, invalid: 0 } });
    const replay = await createSandbox({ fixture: join(out, "fixture.json") });
    try {
      for (const [index, query] of searches.entries()) {
        const page = (await (
          await replay.fetch(`http://sandbox/api/v2/channels/conversations?${new URLSearchParams(query)}`, { headers: { "X-Token": "sandbox-token" } })
        ).json()) as ConversationPage;
        expect(page.totalItemCount).toBe(answered[index]!.totalItemCount);
        expect(page.items.map((item) => item.id).sort()).toEqual(answered[index]!.items.map((item) => item.id).sort());
      }
      expect(answered[0]!.totalItemCount).toBe(30);
    } finally {
      await replay.close();
    }
  });
});
