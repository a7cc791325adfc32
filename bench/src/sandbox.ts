/**
 * The sandbox: search requests per second against Prism's and against the ceiling of a plain
 * `node:http` server answering the same bytes, under the same load from a generator in its own
 * process, in alternating rounds in the same run; time to generate and load 100,000 conversations
 * and the resident memory then; filtered searches at 100,000 one at a time (p50/p95) and 16 at once (autocannon, p97.5);
 * how long searches wait while a reset loads 100,000 conversations; and how long SIGTERM takes.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DatabaseSync } from "node:sqlite";
import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import { launchSandbox } from "@bot-conversation/sandbox";
import { startCeiling } from "./ceiling-server.ts";
import { cpuSecondsOf, memoryOf } from "./proc.ts";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";
import { compareLoads, loadHeader, loadRow, loadServer, percent, ratioHeader, type ServerLoad, times } from "./server-load.ts";

const searchPath = "/api/v2/channels/conversations";
/**
 * The load on both servers: 10 connections on the search operation, one request in flight each, from
 * autocannon in a process of its own. Each measured window follows a warm-up, a long one before a
 * server's first window (Prism's CPU time per request still falls by a third over its first 10 s of
 * load); rounds alternate which server goes first, so both see the same state of the machine.
 */
const load = { connections: 10, durationSeconds: 5 };
const warmUpSeconds = { first: 10, eachRound: 2 };
const rounds = 3;
const largeCount = 100_000;
const filteredRequests = { warmUp: 40, measured: 480 };

/** A server under load. */
interface LoadTarget {
  /** Base URL. */
  readonly url: string;
  /** Its process, whose CPU time is read. */
  readonly pid: number;
}

/** Loads each target once per round, in an order that turns round by round; the loads of each target in round order. */
async function searchRounds(targets: readonly LoadTarget[], token: string): Promise<ServerLoad[][]> {
  const results: ServerLoad[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const index of targets.map((_, position) => (position + round) % targets.length)) {
      const target = targets[index]!;
      const warmUp = round === 0 ? warmUpSeconds.first : warmUpSeconds.eachRound;
      results[index]!.push(await loadServer(target.pid, { url: `${target.url}${searchPath}`, headers: { "X-Token": token }, warmUpSeconds: warmUp, ...load }));
    }
  }
  return results;
}

/** Whether a `--data` file (a SQLite database) holds a fired event of the conversation. */
function firedInFile(path: string, conversationId: string): boolean {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    return database.prepare("SELECT 1 FROM events WHERE conversation_id = ?").get(conversationId) !== undefined;
  } finally {
    database.close();
  }
}

const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

/** Filter combinations a frontend sends, built from one conversation the sandbox itself returned. */
async function filterQueries(url: string, headers: Record<string, string>): Promise<Record<string, string>> {
  const page = (await (await fetch(`${url}${searchPath}?pageSize=1&pageIndex=5000`, { headers })).json()) as {
    items: { members: { id: string; role: string }[]; startedOn: string; latestMessageOn: string }[];
  };
  const sample = page.items[0]!;
  const bot = sample.members.find((member) => member.role === "Bot")!.id;
  const day = 86_400_000;
  const around = (text: string, days: number) => new Date(Date.parse(text) + days * day).toISOString();
  return {
    "bot + status": `agentStageId=${bot}&status=Active`,
    "bot + channel + start from": `agentStageId=${bot}&channelId=platform&startFromDate=${around(sample.startedOn, -30)}`,
    "status + last-message range": `status=Closed&latestMessageFromDate=${around(sample.latestMessageOn, -10)}&latestMessageToDate=${around(sample.latestMessageOn, 10)}`,
    "channel alone": "channelId=messenger_a",
    "all seven filters": `agentStageId=${bot}&status=Operator&channelId=directline&startFromDate=${around(sample.startedOn, -60)}&startToDate=${around(sample.startedOn, 10)}&latestMessageFromDate=${around(sample.latestMessageOn, -60)}&latestMessageToDate=${around(sample.latestMessageOn, 10)}`,
    "bot, page 50 of 20": `agentStageId=${bot}&pageIndex=50`,
  };
}

/** Round-trip times of the queries, `concurrency` in flight at once, after a warm-up. */
async function timeQueries(url: string, headers: Record<string, string>, queries: [string, string][], concurrency: number): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(queries.map(([name]) => [name, []]));
  let next = 0;
  const total = filteredRequests.warmUp + filteredRequests.measured;
  const worker = async () => {
    for (let index = next++; index < total; index = next++) {
      const [name, query] = queries[index % queries.length]!;
      const sent = performance.now();
      const response = await fetch(`${url}${searchPath}?${query}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`search "${name}" answered ${response.status}`);
      if (index >= filteredRequests.warmUp) times.get(name)!.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return times;
}

/** Starts Prism, the sandbox and the ceiling, loads each the same way, then a sandbox of 100,000 conversations; always stops them. */
export async function sandboxServer(): Promise<Section> {
  const token = "sandbox-token";
  const headers = { "x-token": token };
  const mock = await startMockOnFreePort(defaultMockOptions);
  const small = await launchSandbox([]).catch(async (error: unknown) => {
    await mock.stop();
    throw error;
  });
  const ceiling = await startCeiling(await (await fetch(`${small.url}${searchPath}`, { headers })).arrayBuffer());
  const [prismLoads, sandboxLoads, ceilingLoads] = (await searchRounds(
    [
      { url: mock.url, pid: mock.process.pid! },
      { url: small.url, pid: small.process.pid! },
      { url: ceiling.url, pid: ceiling.pid },
    ],
    token,
  ).finally(() => Promise.all([mock.stop(), small.stop(), ceiling.stop()]))) as [ServerLoad[], ServerLoad[], ServerLoad[]];
  const overPrism = compareLoads("over Prism's", sandboxLoads, prismLoads, times);
  const ofCeiling = compareLoads("share of the node:http ceiling", sandboxLoads, ceilingLoads, percent);

  const scratch = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
  const started = performance.now();
  const large = await launchSandbox(["--conversations", String(largeCount), "--data", join(scratch, "data.db")], { readyWithinMs: 600_000 });
  const readyMs = performance.now() - started;
  // The CPU time it spent from its start to its ready line (all its threads): what the budget reads, as the wall
  // time moves with whatever else the machine runs.
  const readyCpuSeconds = cpuSecondsOf(large.process.pid!).own;
  let stopMs = Number.NaN;
  try {
    const rssAfterLoadKb = memoryOf(large.process.pid!, "VmRSS");
    const peakLoadingKb = memoryOf(large.process.pid!, "VmHWM");
    const queries = Object.entries(await filterQueries(large.url, headers));
    const oneAtATime = await timeQueries(large.url, headers, queries, 1);
    // 16 at once from autocannon in its own process (the bench's own fetch client, on the same two cores, made
    // its own queueing the tail): each filter mix loaded on its own, its 97.5th percentile (above the 95th) kept.
    const sixteen = new Map<string, ServerLoad>();
    for (const [name, query] of queries) {
      sixteen.set(
        name,
        await loadServer(large.process.pid!, { url: `${large.url}${searchPath}?${query}`, headers, connections: 16, warmUpSeconds: 1, durationSeconds: 3 }),
      );
    }
    const sorted = (times: Map<string, number[]>) => [...times.values()].flat().sort((a, b) => a - b);
    const p95One = percentile(sorted(oneAtATime), 0.95);
    const p95Sixteen = Math.max(...[...sixteen.values()].map((result) => result.p97_5));
    // Searches sent one after another while a reset loads another 100,000 conversations.
    const resetStarted = performance.now();
    let resetMs = Number.NaN;
    const reset = fetch(`${large.url}/_sandbox/reset`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ seed: "another", conversations: largeCount }),
    }).then((response) => {
      resetMs = performance.now() - resetStarted;
      return response.status;
    });
    const duringReset: number[] = [];
    while (Number.isNaN(resetMs)) {
      const sent = performance.now();
      await (await fetch(`${large.url}${searchPath}?status=Closed`, { headers })).arrayBuffer();
      if (Number.isNaN(resetMs)) duringReset.push(performance.now() - sent);
    }
    if ((await reset) !== 200) throw new Error("the reset failed");
    duringReset.sort((a, b) => a - b);
    const ratio = overPrism.byCpu.median;
    const rssKb = memoryOf(large.process.pid!, "VmRSS");
    const peakKb = memoryOf(large.process.pid!, "VmHWM");
    // SIGTERM after a fire: the time to exit, and the fire found in the --data file.
    const [conversation] = ((await (await fetch(`${large.url}${searchPath}?pageSize=1`, { headers })).json()) as { items: { id: string }[] }).items;
    await fetch(`${large.url}/api/v1/runtime/simple/external/events`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ conversationId: conversation!.id, externalEventId: "order-status-changed" }),
    });
    const signalled = performance.now();
    await large.stop("SIGTERM");
    stopMs = performance.now() - signalled;
    const flushed = firedInFile(join(scratch, "data.db"), conversation!.id);
    const share = ofCeiling.byCpu.median;
    const quantiles = (times: Map<string, number[]>) =>
      [...times].map(([name, values]) => {
        const ordered = [...values].sort((a, b) => a - b);
        return [name, formatNumber(percentile(ordered, 0.5), 2), formatNumber(percentile(ordered, 0.95), 2)];
      });
    const readyBudgetMs = 2_000;
    const rssBudgetMiB = 300;
    return {
      title: "Sandbox",
      method: `The sandbox (in memory, its default 200 conversations), Prism, and a plain node:http server answering the sandbox's exact bytes for the same search (the ceiling of any Node server on this machine), each in its own process on 127.0.0.1, under the same load: the search operation without filters from autocannon in a process of its own (not the bench's), ${load.connections} connections with one request in flight each; ${rounds} rounds of ${load.durationSeconds} s measured per server, the order turning each round, each after a warm-up (${warmUpSeconds.first} s before a server's first round, ${warmUpSeconds.eachRound} s before the others). Server CPU is the server process's CPU time (from /proc: utime + stime) over the window, 100% being one core always busy; servers are compared by their CPU time per answer (the other's over this one's: above 1, this one answers with less CPU), round by round, and the budgets take the median of the rounds' ratios; requests per second, which move with whatever else the machine runs, are information. The machine's load is its 1-minute load average at each window's end. Then a sandbox started with --conversations ${formatNumber(largeCount)} and --data: time from spawning it to its ready line and the CPU time it spent meanwhile (/proc, all its threads: the budget reads it), resident memory from /proc; ${filteredRequests.measured} searches with filters (after ${filteredRequests.warmUp} to warm up) one at a time, round-trip times; then each filter mix for 3 s with 16 connections from autocannon in its own process (after 1 s of warm-up), its latency percentiles (whole milliseconds, autocannon's); searches sent one after another while POST /_sandbox/reset loads another ${formatNumber(largeCount)}; then one fire and SIGTERM, timed to the process's exit, and the fire looked up in the --data file.`,
      table: [
        markdownTable(
          loadHeader("Server, search"),
          prismLoads.flatMap((prismLoad, round) => [
            loadRow(round, "Prism mock", prismLoad),
            loadRow(round, "sandbox", sandboxLoads[round]!),
            loadRow(round, "node:http ceiling", ceilingLoads[round]!),
          ]),
        ),
        "",
        markdownTable(ratioHeader("Sandbox, search", rounds), [...overPrism.rows, ...ofCeiling.rows]),
        "",
        markdownTable(
          ["Filters at 100,000 conversations, one at a time", "p50 ms", "p95 ms"],
          quantiles(oneAtATime).concat([["all", formatNumber(percentile(sorted(oneAtATime), 0.5), 2), formatNumber(p95One, 2)]]),
        ),
        "",
        markdownTable(
          ["Filters at 100,000 conversations, 16 at once (autocannon, 3 s each)", "requests/s", "p50 ms", "p97.5 ms", "p99 ms", "non-2xx"],
          [...sixteen].map(([name, result]) => [
            name,
            formatNumber(result.requestsPerSecond),
            formatNumber(result.p50),
            formatNumber(result.p97_5),
            formatNumber(result.p99),
            result.non2xx,
          ]),
        ),
        "",
        markdownTable(
          [
            "Generate and load 100,000 conversations (its CPU time)",
            "RSS after loading",
            "peak RSS while loading",
            "RSS at the end",
            "peak RSS (the reset holds two datasets)",
            "reset to another 100,000",
            "searches answered during it",
            "their p50 / p95 / max ms",
            "SIGTERM to exit",
            "the last fire in --data",
          ],
          [
            [
              `${formatNumber(readyMs / 1000, 2)} s (${formatNumber(readyCpuSeconds, 2)} s)`,
              `${formatNumber(rssAfterLoadKb / 1024)} MiB`,
              `${formatNumber(peakLoadingKb / 1024)} MiB`,
              `${formatNumber(rssKb / 1024)} MiB`,
              `${formatNumber(peakKb / 1024)} MiB`,
              `${formatNumber(resetMs / 1000, 2)} s`,
              duringReset.length,
              `${formatNumber(percentile(duringReset, 0.5), 2)} / ${formatNumber(percentile(duringReset, 0.95), 2)} / ${formatNumber(duringReset.at(-1) ?? Number.NaN, 2)}`,
              `${formatNumber(stopMs)} ms`,
              flushed ? "yes" : "no",
            ],
          ],
        ),
      ].join("\n"),
      budgets: [
        {
          name: "sandbox search at least 10x Prism's, by CPU per answer",
          ok: ratio >= 10,
          detail: `median ${times(ratio)} over ${rounds} rounds (${overPrism.byCpu.rounds.map(times).join(", ")}; medians ${formatNumber(median(sandboxLoads.map((result) => result.serverCpuMicrosPerRequest)), 1)} vs ${formatNumber(median(prismLoads.map((result) => result.serverCpuMicrosPerRequest)), 1)} CPU µs per answer; by requests/s ${times(overPrism.byThroughput.median)})`,
        },
        {
          name: "sandbox search at least 80% of the node:http ceiling, by CPU per answer",
          ok: share >= 0.8,
          detail: `median ${percent(share)} over ${rounds} rounds (${ofCeiling.byCpu.rounds.map(percent).join(", ")}; medians ${formatNumber(median(sandboxLoads.map((result) => result.serverCpuMicrosPerRequest)), 1)} vs ${formatNumber(median(ceilingLoads.map((result) => result.serverCpuMicrosPerRequest)), 1)} CPU µs per answer; by requests/s ${percent(ofCeiling.byThroughput.median)})`,
        },
        {
          name: `100,000 conversations ready in at most ${readyBudgetMs / 1000} s of the process's CPU time`,
          ok: readyCpuSeconds * 1000 <= readyBudgetMs,
          detail: `${formatNumber(readyCpuSeconds, 2)} s of CPU, spawn to ready line (${formatNumber(readyMs / 1000, 2)} s of wall time)`,
        },
        {
          name: `100,000 conversations in at most ${rssBudgetMiB} MiB resident`,
          ok: peakLoadingKb / 1024 <= rssBudgetMiB,
          detail: `peak while loading ${formatNumber(peakLoadingKb / 1024)} MiB, ${formatNumber(rssAfterLoadKb / 1024)} MiB once ready (a reset to another 100,000 holds both for a while: peak ${formatNumber(peakKb / 1024)} MiB)`,
        },
        {
          name: "search with filters at 100,000 conversations, 16 at once, p95 at most 10 ms",
          ok: p95Sixteen <= 10,
          detail: `the slowest filter mix's p97.5 (stricter than p95) ${formatNumber(p95Sixteen)} ms (one at a time, p95 ${formatNumber(p95One, 2)} ms)`,
        },
        {
          name: "SIGTERM stops the sandbox within 200 ms, its --data file holding the last fire",
          ok: stopMs <= 200 && flushed,
          detail: `${formatNumber(stopMs)} ms; the fire ${flushed ? "is" : "is not"} in the file`,
        },
      ],
    };
  } finally {
    await large.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The fire the data benchmarks send: the description's example conversation and trigger, which the default data and Prism both know. */
const fireBody = JSON.stringify({
  conversationId: "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c",
  externalEventId: "order-status-changed",
  externalEventPayload: { orderNumber: "10482" },
});
const firePath = "/api/v1/runtime/simple/external/events";
const millionEvents = 1_000_000;

/** Loads each target with `request` once per round, in turning order; the loads of each target in round order. */
async function roundsOf(
  targets: readonly LoadTarget[],
  request: (target: LoadTarget) => Omit<Parameters<typeof loadServer>[1], "warmUpSeconds" | "durationSeconds">,
): Promise<ServerLoad[][]> {
  const results: ServerLoad[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const index of targets.map((_, position) => (position + round) % targets.length)) {
      const target = targets[index]!;
      results[index]!.push(
        await loadServer(target.pid, { ...request(target), warmUpSeconds: round === 0 ? 5 : warmUpSeconds.eachRound, durationSeconds: load.durationSeconds }),
      );
    }
  }
  return results;
}

/**
 * The sandbox with `--data` (a SQLite database, each fire committed before its answer): fires per second, 16 at once,
 * against the sandbox in memory and Prism in the same rounds; searches per second against the sandbox in
 * memory; searches during a flood of unauthenticated bodies; then the time to restart over 1,000,000 fired
 * events and the memory it takes.
 */
export async function sandboxData(): Promise<Section> {
  const headers = { "x-token": "sandbox-token" };
  const scratch = mkdtempSync(join(tmpdir(), "bench-sandbox-data-"));
  const data = join(scratch, "data.db");
  const mock = await startMockOnFreePort(defaultMockOptions);
  const started: { stop(signal?: NodeJS.Signals): Promise<unknown> }[] = [mock];
  try {
    const memory = await launchSandbox([]);
    started.push(memory);
    let kept = await launchSandbox(["--data", data]);
    started.push(kept);
    const targets: LoadTarget[] = [
      { url: mock.url, pid: mock.process.pid! },
      { url: memory.url, pid: memory.process.pid! },
      { url: kept.url, pid: kept.process.pid! },
    ];
    const [prismFires, memoryFires, dataFires] = (await roundsOf(targets, (target) => ({
      url: `${target.url}${firePath}`,
      method: "POST",
      body: fireBody,
      headers: { ...headers, "content-type": "application/json" },
      connections: 16,
    }))) as [ServerLoad[], ServerLoad[], ServerLoad[]];
    const [memorySearches, dataSearches] = (await roundsOf(targets.slice(1), (target) => ({
      url: `${target.url}${searchPath}`,
      headers,
      connections: load.connections,
    }))) as [ServerLoad[], ServerLoad[]];
    const fired = ((await (await fetch(`${kept.url}/_sandbox/fired-events?limit=1`, { headers })).json()) as unknown[]).length;

    // A flood of unauthenticated 64 kB bodies (32 connections, autocannon in its own process) while the bench
    // sends searches with the token one after another: their round trips, and the sandbox's memory after.
    const fresh = await launchSandbox([]);
    started.push(fresh);
    const rssEmptyKb = memoryOf(fresh.process.pid!, "VmRSS");
    const floodBody = `[${Array.from({ length: 32_000 }, () => "0").join(",")}]`;
    let flooding = true;
    const duringFlood: number[] = [];
    const searching = (async () => {
      while (flooding) {
        const sent = performance.now();
        const response = await fetch(`${fresh.url}${searchPath}?pageSize=5`, { headers });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`a search during the flood answered ${response.status}`);
        duringFlood.push(performance.now() - sent);
      }
    })();
    const flood = await loadServer(fresh.process.pid!, {
      url: `${fresh.url}${firePath}`,
      method: "POST",
      body: floodBody,
      headers: { "x-token": "not-the-token", "content-type": "application/json" },
      connections: 32,
      warmUpSeconds: 1,
      durationSeconds: 5,
    }).finally(() => (flooding = false));
    await searching;
    duringFlood.sort((a, b) => a - b);
    const floodRssKb = memoryOf(fresh.process.pid!, "VmRSS");
    const floodPeakKb = memoryOf(fresh.process.pid!, "VmHWM");
    await fresh.stop();

    // 1,000,000 fired events written into the file directly (firing them would take minutes), then a restart.
    await kept.stop("SIGTERM");
    const database = new DatabaseSync(data);
    const insert = database.prepare(
      "INSERT INTO events (received_at, sent_conversation_id, sent_external_conversation_id, external_event_id, payload, conversation_id) VALUES (?, ?, NULL, 'order-status-changed', ?, ?)",
    );
    const { count: before } = database.prepare("SELECT count(*) AS count FROM events").get() as { count: number };
    database.exec("BEGIN");
    for (let index = before; index < millionEvents; index++)
      insert.run(
        new Date(Date.UTC(2026, 10, 20) + index).toISOString(),
        "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c",
        `{"orderNumber":"${index}"}`,
        "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c",
      );
    database.exec("COMMIT");
    database.close();
    const fileMiB = statSync(data).size / 1024 / 1024;
    const restartedAt = performance.now();
    kept = await launchSandbox(["--data", data]);
    started.push(kept);
    const restartMs = performance.now() - restartedAt;
    const rssMillionKb = memoryOf(kept.process.pid!, "VmRSS");
    const pageAt = performance.now();
    const page = await fetch(`${kept.url}/_sandbox/fired-events`, { headers });
    const pageEvents = ((await page.json()) as unknown[]).length;
    const pageMs = performance.now() - pageAt;
    const lastAt = performance.now();
    const lastPage = await fetch(`${kept.url}/_sandbox/fired-events?cursor=${millionEvents - 1000}`, { headers });
    await lastPage.arrayBuffer();
    const lastPageMs = performance.now() - lastAt;
    const rssAfterPagesKb = memoryOf(kept.process.pid!, "VmRSS");
    const clearAt = performance.now();
    await fetch(`${kept.url}/_sandbox/fired-events`, { method: "DELETE", headers });
    const clearMs = performance.now() - clearAt;
    await kept.stop("SIGTERM");
    const clearedMiB = statSync(data).size / 1024 / 1024;

    const firesOverMemory = compareLoads("fires, over the sandbox in memory", dataFires, memoryFires, percent);
    const firesOverPrism = compareLoads("fires, over Prism", dataFires, prismFires, times);
    const searchesOverMemory = compareLoads("searches, over the sandbox in memory", dataSearches, memorySearches, percent);
    const overMemory = firesOverMemory.byCpu.median;
    const overPrism = firesOverPrism.byCpu.median;
    const searchShare = searchesOverMemory.byCpu.median;
    const restartBudgetMs = 5_000;
    return {
      title: "Sandbox with --data",
      method: `Prism, the sandbox in memory and the sandbox with --data (its default 200 conversations), each in its own process on 127.0.0.1, under the same load from autocannon in a process of its own: the fire operation (one body, the description's example conversation and trigger, which both know), 16 connections with one request in flight each; ${rounds} rounds of ${load.durationSeconds} s per server, the order turning each round (5 s of warm-up before the first, ${warmUpSeconds.eachRound} s before the others). Every fire the --data sandbox answers is committed before its answer (the fires of one event-loop turn share one SQLite transaction: group commit). Then the search operation without filters on both sandboxes, ${load.connections} connections, the same rounds. Then, on a fresh sandbox in memory, 32 connections of unauthenticated POSTs with 64 kB JSON bodies for 5 s (after 1 s) from autocannon, while the bench sends searches with the token one after another: their round trips, and the sandbox's RSS and peak RSS (VmHWM) after. Then ${formatNumber(millionEvents)} fired events written into the --data file directly, and the sandbox started again over it: spawn to ready line, resident memory (/proc) then and after reading the first and the last page of GET /_sandbox/fired-events, the file's size before and after DELETE /_sandbox/fired-events. Servers are compared by CPU time per answer (/proc: utime + stime; the other's over this one's), round by round, and the budgets take the median of the rounds' ratios; requests per second are information.`,
      table: [
        markdownTable(
          loadHeader("Server, fire (16 at once)"),
          prismFires.flatMap((prismLoad, round) => [
            loadRow(round, "Prism mock", prismLoad),
            loadRow(round, "sandbox in memory", memoryFires[round]!),
            loadRow(round, "sandbox --data", dataFires[round]!),
          ]),
        ),
        "",
        markdownTable(
          loadHeader("Server, search"),
          memorySearches.flatMap((memoryLoad, round) => [
            loadRow(round, "sandbox in memory", memoryLoad),
            loadRow(round, "sandbox --data", dataSearches[round]!),
          ]),
        ),
        "",
        markdownTable(ratioHeader("Sandbox --data", rounds), [...firesOverMemory.rows, ...firesOverPrism.rows, ...searchesOverMemory.rows]),
        "",
        markdownTable(
          [
            `${formatNumber(millionEvents)} fired events`,
            "file",
            "restart to ready",
            "RSS then",
            "RSS of a fresh sandbox (no --data)",
            "first page (1,000)",
            "last page",
            "RSS after both pages",
            "clear",
            "file after the clear",
          ],
          [
            [
              formatNumber(millionEvents),
              `${formatNumber(fileMiB)} MiB`,
              `${formatNumber(restartMs / 1000, 2)} s`,
              `${formatNumber(rssMillionKb / 1024)} MiB`,
              `${formatNumber(rssEmptyKb / 1024)} MiB`,
              `${pageEvents} events, ${formatNumber(pageMs, 1)} ms`,
              `${formatNumber(lastPageMs, 1)} ms`,
              `${formatNumber(rssAfterPagesKb / 1024)} MiB`,
              `${formatNumber(clearMs)} ms`,
              `${formatNumber(clearedMiB, 2)} MiB`,
            ],
          ],
        ),
        "",
        markdownTable(
          [
            "Unauthenticated 64 kB POSTs, 32 at once (5 s)",
            "requests/s",
            "401s",
            "searches with the token meanwhile",
            "their p50 / p95 / max ms",
            "sandbox RSS after",
            "its peak RSS",
          ],
          [
            [
              formatNumber(flood.requestsPerSecond),
              flood.non2xx === flood.requests ? "all" : `${flood.non2xx} of ${flood.requests}`,
              duringFlood.length,
              `${formatNumber(percentile(duringFlood, 0.5), 1)} / ${formatNumber(percentile(duringFlood, 0.95), 1)} / ${formatNumber(duringFlood.at(-1) ?? Number.NaN, 1)}`,
              `${formatNumber(floodRssKb / 1024)} MiB`,
              `${formatNumber(floodPeakKb / 1024)} MiB`,
            ],
          ],
        ),
      ].join("\n"),
      budgets: [
        {
          name: "a flood of unauthenticated 64 kB POSTs: the sandbox under 400 MiB resident, every search with the token answered within 1 s",
          ok: floodPeakKb / 1024 < 400 && duringFlood.length > 0 && (duringFlood.at(-1) ?? Infinity) <= 1000,
          detail: `peak ${formatNumber(floodPeakKb / 1024)} MiB; ${duringFlood.length} searches, the slowest ${formatNumber(duringFlood.at(-1) ?? Number.NaN, 1)} ms`,
        },
        {
          name: "fires with --data, 16 at once, at least half the sandbox's in memory, by CPU per answer",
          ok: overMemory >= 0.5 && fired === 1,
          detail: `median ${percent(overMemory)} (medians ${formatNumber(median(dataFires.map((result) => result.serverCpuMicrosPerRequest)), 1)} vs ${formatNumber(median(memoryFires.map((result) => result.serverCpuMicrosPerRequest)), 1)} CPU µs per fire; by fires/s ${percent(firesOverMemory.byThroughput.median)})`,
        },
        {
          name: "fires with --data, 16 at once, at least 10x Prism's, by CPU per answer",
          ok: overPrism >= 10,
          detail: `median ${times(overPrism)} (Prism ${formatNumber(median(prismFires.map((result) => result.serverCpuMicrosPerRequest)), 1)} CPU µs per fire; by fires/s ${times(firesOverPrism.byThroughput.median)})`,
        },
        {
          name: "searches with --data unchanged (at least 90% of in memory by CPU per answer: the read path is the same engine)",
          ok: searchShare >= 0.9,
          detail: `median ${percent(searchShare)} (by requests/s ${percent(searchesOverMemory.byThroughput.median)})`,
        },
        {
          name: `restart over ${formatNumber(millionEvents)} fired events within ${restartBudgetMs / 1000} s`,
          ok: restartMs <= restartBudgetMs,
          detail: `${formatNumber(restartMs / 1000, 2)} s, ${formatNumber(rssMillionKb / 1024)} MiB resident (${formatNumber(rssEmptyKb / 1024)} MiB for a fresh sandbox without --data), ${formatNumber(rssAfterPagesKb / 1024)} MiB after reading pages`,
        },
      ],
    };
  } finally {
    for (const server of started.reverse()) await server.stop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}
