/**
 * The sandbox in the browser (issue 21): the storage decision measured (the in-memory engine against
 * SQLite compiled to WebAssembly, `@sqlite.org/sqlite-wasm`, over the same 10,000 conversations), then
 * the MSW sandbox in Chromium (the workspace's resolver: the system's or the npm one): ready time for the `default` and `large` states, and the cost
 * of a request over a bare MSW handler answering the same bytes in the same page.
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { createSandbox } from "@bot-conversation/sandbox";
import { launchChromium } from "@bot-conversation/test-support/browser";
import sqlite3InitModule from "@sqlite.org/sqlite-wasm";
import { build } from "esbuild";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";

const count = 10_000;
const percentile = (values: number[], fraction: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(fraction * values.length) - 1)]!;
const searchPath = "/api/v2/channels/conversations";

/** The filters both engines answer, on the large state's data. */
function filters(bot: string): Record<string, string>[] {
  return [
    {},
    { status: "Closed" },
    { agentStageId: bot },
    { agentStageId: bot, channelId: "platform", startFromDate: "2026-10-01T00:00:00Z" },
    { latestMessageFromDate: "2026-11-01T00:00:00Z", latestMessageToDate: "2026-11-10T00:00:00Z" },
  ];
}

/** Loads the same conversations into SQLite (WebAssembly) with an index per filter, and times loading and searching. */
async function sqliteWasm(rows: { id: string; bot: string; status: string; channel: string; started: number; latest: number; summary: string }[], bot: string) {
  const started = performance.now();
  const sqlite3 = await sqlite3InitModule();
  const db = new sqlite3.oo1.DB(":memory:");
  db.exec("CREATE TABLE c (n INTEGER PRIMARY KEY, id TEXT, bot TEXT, status TEXT, channel TEXT, started REAL, latest REAL, summary TEXT)");
  db.exec("BEGIN");
  const insert = db.prepare("INSERT INTO c (id, bot, status, channel, started, latest, summary) VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const row of rows) insert.bind([row.id, row.bot, row.status, row.channel, row.started, row.latest, row.summary]).stepReset();
  insert.finalize();
  db.exec(
    "COMMIT; CREATE INDEX c_bot ON c (bot, started); CREATE INDEX c_status ON c (status, started); CREATE INDEX c_started ON c (started); CREATE INDEX c_latest ON c (latest); ANALYZE;",
  );
  const loadMs = performance.now() - started;
  const times: number[] = [];
  for (let round = 0; round < 40; round++) {
    for (const filter of filters(bot)) {
      const where = Object.entries(filter).map(
        ([name]) =>
          ({
            agentStageId: "bot = ?",
            status: "status = ?",
            channelId: "channel = ?",
            startFromDate: "started >= ?",
            latestMessageFromDate: "latest >= ?",
            latestMessageToDate: "latest <= ?",
          })[name],
      );
      const values = Object.entries(filter).map(([name, value]) => (name.endsWith("Date") ? Date.parse(value) : value));
      const condition = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
      const sent = performance.now();
      const bind = values.length > 0 ? values : undefined;
      db.selectValue(`SELECT count(*) FROM c ${condition}`, bind);
      db.selectValues(`SELECT summary FROM c ${condition} ORDER BY started DESC, n DESC LIMIT 20`, bind);
      times.push(performance.now() - sent);
    }
  }
  db.close();
  return { loadMs, times };
}

/** The MSW page, bundled as a frontend's bundler would, served on loopback and opened in Chromium. */
async function chromiumRuns(): Promise<{ state: string; workerMs: number; sandboxMs: number; sandboxRequest: number[]; bareRequest: number[] }[]> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("./browser/msw-page.ts", import.meta.url))],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    target: "es2022",
  });
  const script = bundle.outputFiles[0]!.contents;
  const worker = await readFile(fileURLToPath(import.meta.resolve("msw/mockServiceWorker.js")));
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (path === "/app.js") return response.writeHead(200, { "content-type": "text/javascript" }).end(script);
    if (path === "/mockServiceWorker.js") return response.writeHead(200, { "content-type": "text/javascript" }).end(worker);
    response.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><meta charset="utf-8"><script type="module" src="/app.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const results = [];
    for (const state of ["default", "large", "default", "large", "default", "large"]) {
      const page = await browser.newPage();
      await page.goto(`${origin}/?state=${state}`);
      const ready = await page.evaluate(() => window.benchReady);
      // Alternating sandbox and bare in rounds, after a warm-up of each.
      await page.evaluate(() =>
        Promise.all([window.timeRequests("https://sandbox.bench/api/v2/channels/conversations", 50), window.timeRequests("https://bare.bench/x", 50)]),
      );
      const sandboxRequest: number[] = [];
      const bareRequest: number[] = [];
      for (let round = 0; round < 4; round++) {
        sandboxRequest.push(...(await page.evaluate(() => window.timeRequests("https://sandbox.bench/api/v2/channels/conversations?status=Closed", 50))));
        bareRequest.push(...(await page.evaluate(() => window.timeRequests("https://bare.bench/x", 50))));
      }
      results.push({ state, ...ready, sandboxRequest, bareRequest });
      await page.close();
    }
    return results;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Measures both storages, then the MSW sandbox in Chromium. */
export async function browserSandbox(): Promise<Section> {
  // The in-memory engine, as the MSW handlers use it: ready time and searches, through the sandbox's own fetch.
  const memoryStarted = performance.now();
  const sandbox = await createSandbox({ state: "large" });
  const memoryLoadMs = performance.now() - memoryStarted;
  const bots = (await (await sandbox.fetch("http://x/_sandbox/bots", { headers: { "x-token": "sandbox-token" } })).json()) as { agentStageId: string }[];
  const bot = bots[1]!.agentStageId;
  const memoryTimes: number[] = [];
  for (let round = 0; round < 40; round++) {
    for (const filter of filters(bot)) {
      const sent = performance.now();
      await (await sandbox.fetch(`http://x${searchPath}?${new URLSearchParams(filter)}`, { headers: { "x-token": "sandbox-token" } })).arrayBuffer();
      memoryTimes.push(performance.now() - sent);
    }
  }
  // The same conversations for SQLite, read back from the sandbox (each summary as the search serves it).
  const rows: Parameters<typeof sqliteWasm>[0] = [];
  for (let pageIndex = 0; pageIndex * 1000 < count; pageIndex++) {
    const page = (await (
      await sandbox.fetch(`http://x${searchPath}?pageSize=1000&pageIndex=${pageIndex}`, { headers: { "x-token": "sandbox-token" } })
    ).json()) as {
      items: { id: string; status: string; channelId: string; startedOn: string; latestMessageOn: string; members: { id: string; role: string }[] }[];
    };
    for (const item of page.items) {
      rows.push({
        id: item.id,
        bot: item.members.find((member) => member.role === "Bot")!.id,
        status: item.status,
        channel: item.channelId,
        started: Date.parse(item.startedOn),
        latest: Date.parse(item.latestMessageOn),
        summary: JSON.stringify(item),
      });
    }
  }
  await sandbox.close();
  const sqlite = await sqliteWasm(rows, bot);
  const wasmBytes = (await readFile(fileURLToPath(import.meta.resolve("@sqlite.org/sqlite-wasm/sqlite3.wasm")))).byteLength;
  const mswBundle = await build({
    entryPoints: [fileURLToPath(import.meta.resolve("@bot-conversation/sandbox/msw"))],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    external: ["msw", "msw/*"],
  });
  const engineGzip = gzipSync(mswBundle.outputFiles[0]!.contents, { level: 9 }).byteLength;

  const runs = await chromiumRuns();
  const byState = (state: string) => runs.filter((run) => run.state === state);
  const readyOf = (state: string) => median(byState(state).map((run) => run.sandboxMs));
  const overhead = (state: string) => median(byState(state).flatMap((run) => run.sandboxRequest)) - median(byState(state).flatMap((run) => run.bareRequest));
  const defaultReady = readyOf("default");
  const largeReady = readyOf("large");
  return {
    title: "Sandbox in the browser (MSW)",
    method: `Storage decision, in Node 24 (V8, as Chromium): the sandbox's in-memory engine (createSandbox with state large, ${formatNumber(count)} conversations: generating and loading; then 200 searches with five filter mixes through its fetch) against @sqlite.org/sqlite-wasm 3.54.1 in memory loading the same ${formatNumber(count)} summaries with four indexes and answering the same filters (count and first page of 20, SQL only: no HTTP handling, no JSON). Then Chromium: a page bundled by esbuild with @bot-conversation/sandbox/msw and a bare MSW handler that answers the same bytes as the sandbox's default search; ready time is createSandboxHandlers to its data in place (MSW's worker registration reported apart); per-request cost is the median round trip of 200 searches (status=Closed) minus the bare handler's, in alternating rounds; three pages per state.`,
    table: [
      markdownTable(
        ["Engine, 10,000 conversations", "ready (load) ms", "search p50 ms", "search p95 ms", "shipped to the browser"],
        [
          [
            "in memory (the sandbox's engine)",
            formatNumber(memoryLoadMs),
            formatNumber(percentile(memoryTimes, 0.5), 2),
            formatNumber(percentile(memoryTimes, 0.95), 2),
            `${formatNumber(engineGzip / 1024)} KiB gzip (the whole sandbox, rules included)`,
          ],
          [
            "SQLite in WebAssembly (SQL only)",
            formatNumber(sqlite.loadMs),
            formatNumber(percentile(sqlite.times, 0.5), 2),
            formatNumber(percentile(sqlite.times, 0.95), 2),
            `${formatNumber(wasmBytes / 1024)} KiB of wasm, before the sandbox's code`,
          ],
        ],
      ),
      "",
      markdownTable(
        ["Chromium, MSW sandbox", "ready ms (median)", "worker start ms", "round trip p50 ms", "bare MSW handler p50 ms", "sandbox cost per request ms"],
        ["default", "large"].map((state) => [
          state,
          formatNumber(readyOf(state), 1),
          formatNumber(median(byState(state).map((run) => run.workerMs)), 1),
          formatNumber(median(byState(state).flatMap((run) => run.sandboxRequest)), 2),
          formatNumber(median(byState(state).flatMap((run) => run.bareRequest)), 2),
          formatNumber(overhead(state), 2),
        ]),
      ),
    ].join("\n"),
    budgets: [
      {
        name: "MSW sandbox ready in Chromium, default state, at most 100 ms",
        ok: defaultReady <= 100,
        detail: `median ${formatNumber(defaultReady, 1)} ms over 3 pages`,
      },
      {
        name: "MSW sandbox ready in Chromium, large state (10,000), at most 1 s",
        ok: largeReady <= 1000,
        detail: `median ${formatNumber(largeReady, 1)} ms over 3 pages`,
      },
    ],
  };
}
