/**
 * The sandbox with `--data`: fires against the sandbox in memory and Prism in the same rounds, searches with and
 * without `--data`, searches during a flood of unauthenticated bodies, and a restart over 1,000,000 fired events.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DatabaseSync } from "node:sqlite";
import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import { launchSandbox } from "@bot-conversation/sandbox";
import { memoryOf } from "./proc.ts";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";
import { type LoadTarget, load, percentile, rounds, roundsOf, searchPath, warmUpSeconds } from "./sandbox-rounds.ts";
import { compareLoads, loadHeader, loadRow, loadServer, percent, ratioHeader, type ServerLoad, times } from "./server-load.ts";

/** The fire the data benchmarks send: the description's example conversation and trigger, which the default data and Prism both know. */
export const fireBody = JSON.stringify({
  conversationId: "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c",
  externalEventId: "order-status-changed",
  externalEventPayload: { orderNumber: "10482" },
});
export const firePath = "/api/v1/runtime/simple/external/events";
const millionEvents = 1_000_000;
/** Seconds of warm-up before a server's first window here (the searches' rounds take longer: Prism's CPU per request settles slowly). */
const dataFirstWarmUpSeconds = 5;

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
    const [prismFires, memoryFires, dataFires] = (await roundsOf(
      targets,
      (target) => ({
        url: `${target.url}${firePath}`,
        method: "POST",
        body: fireBody,
        headers: { ...headers, "content-type": "application/json" },
        connections: 16,
      }),
      dataFirstWarmUpSeconds,
    )) as [ServerLoad[], ServerLoad[], ServerLoad[]];
    const [memorySearches, dataSearches] = (await roundsOf(
      targets.slice(1),
      (target) => ({
        url: `${target.url}${searchPath}`,
        headers,
        connections: load.connections,
      }),
      dataFirstWarmUpSeconds,
    )) as [ServerLoad[], ServerLoad[]];
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
