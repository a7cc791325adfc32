/**
 * The sandbox: search requests per second against Prism's, under the same load from a generator in
 * its own process, in alternating rounds in the same run; time to generate and load 100,000
 * conversations; search with filters at 100,000 conversations (p50/p95/p99); and the sandbox's
 * resident memory at 100,000.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import { launchSandbox } from "@bot-conversation/sandbox";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";
import { loadServer, type ServerLoad } from "./server-load.ts";

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

/** Loads each target once per round, the first going first in even rounds and last in odd ones; the loads of each target in round order. */
async function searchRounds(targets: readonly [LoadTarget, LoadTarget], token: string): Promise<[ServerLoad[], ServerLoad[]]> {
  const results: [ServerLoad[], ServerLoad[]] = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const target = targets[index]!;
      const warmUp = round === 0 ? warmUpSeconds.first : warmUpSeconds.eachRound;
      results[index]!.push(await loadServer(target.pid, { url: `${target.url}${searchPath}`, headers: { "X-Token": token }, warmUpSeconds: warmUp, ...load }));
    }
  }
  return results;
}

function loadRow(round: number, name: string, result: ServerLoad): (string | number)[] {
  return [
    round + 1, name, formatNumber(result.requestsPerSecond), formatNumber(result.p50, 1), formatNumber(result.p99, 1),
    `${formatNumber(result.serverCpuShare * 100)}%`, formatNumber(result.serverCpuMicrosPerRequest), `${formatNumber(result.generatorCpuShare * 100)}%`,
    result.non2xx, result.errors,
  ];
}

/** Kilobytes of a /proc status field (VmRSS, VmHWM) of a process. */
function memoryOf(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((candidate) => candidate.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, "") ?? Number.NaN);
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

/** Starts Prism and the sandbox, loads each the same way, then a sandbox of 100,000 conversations; always stops them. */
export async function sandboxServer(): Promise<Section> {
  const token = "sandbox-token";
  const headers = { "x-token": token };
  const mock = await startMockOnFreePort(defaultMockOptions);
  const small = await launchSandbox([]).catch(async (error: unknown) => {
    await mock.stop();
    throw error;
  });
  const [prismLoads, sandboxLoads] = await searchRounds(
    [{ url: mock.url, pid: mock.process.pid! }, { url: small.url, pid: small.process.pid! }],
    token,
  ).finally(() => Promise.all([mock.stop(), small.stop()]));
  const ratios = sandboxLoads.map((sandboxLoad, round) => sandboxLoad.requestsPerSecond / prismLoads[round]!.requestsPerSecond);

  const started = performance.now();
  const large = await launchSandbox(["--conversations", String(largeCount)], { readyWithinMs: 600_000 });
  const readyMs = performance.now() - started;
  try {
    const rssAfterLoadKb = memoryOf(large.process.pid!, "VmRSS");
    const queries = Object.entries(await filterQueries(large.url, headers));
    const times = new Map<string, number[]>(queries.map(([name]) => [name, []]));
    for (let index = 0; index < filteredRequests.warmUp + filteredRequests.measured; index++) {
      const [name, query] = queries[index % queries.length]!;
      const sent = performance.now();
      const response = await fetch(`${large.url}${searchPath}?${query}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`search "${name}" answered ${response.status}`);
      if (index >= filteredRequests.warmUp) times.get(name)!.push(performance.now() - sent);
    }
    const all = [...times.values()].flat().sort((a, b) => a - b);
    const p95 = percentile(all, 0.95);
    const ratio = median(ratios);
    const rssKb = memoryOf(large.process.pid!, "VmRSS");
    const peakKb = memoryOf(large.process.pid!, "VmHWM");
    return {
      title: "Sandbox",
      method: `The sandbox (node:sqlite, its default 200 conversations) and Prism, each in its own process on 127.0.0.1, under the same load: the search operation without filters from autocannon in a process of its own (not the bench's), ${load.connections} connections with one request in flight each; ${rounds} rounds of ${load.durationSeconds} s measured per server, alternating which server goes first, each after a warm-up (${warmUpSeconds.first} s before a server's first round, ${warmUpSeconds.eachRound} s before the others). Server CPU is the server process's CPU time (from /proc) over the window, 100% being one core always busy: near 100%, the server was the limit, not the load generator. The budget takes the median of the rounds' ratios. Then a sandbox started with --conversations ${formatNumber(largeCount)}: time from spawning it to its ready line (generating, inserting and indexing the data); ${filteredRequests.measured} searches with filters sent one at a time over loopback after ${filteredRequests.warmUp} to warm up, round-trip times; resident memory from /proc.`,
      table: [
        markdownTable(
          ["Round", "Server, search", "requests/s", "p50 ms", "p99 ms", "server CPU", "server CPU µs per request", "load generator CPU", "non-2xx", "errors"],
          prismLoads.flatMap((prismLoad, round) => [loadRow(round, "Prism mock", prismLoad), loadRow(round, "sandbox", sandboxLoads[round]!)]),
        ),
        "",
        markdownTable(["Sandbox requests/s over Prism's", ...ratios.map((_, round) => `round ${round + 1}`), "median"], [["", ...ratios.map((value) => `${formatNumber(value, 2)}x`), `${formatNumber(ratio, 2)}x`]]),
        "",
        markdownTable(
          ["Filters at 100,000 conversations", "p50 ms", "p95 ms", "p99 ms"],
          [...times].map(([name, values]) => {
            const sorted = [...values].sort((a, b) => a - b);
            return [name, formatNumber(percentile(sorted, 0.5), 2), formatNumber(percentile(sorted, 0.95), 2), formatNumber(percentile(sorted, 0.99), 2)];
          }).concat([["all", formatNumber(percentile(all, 0.5), 2), formatNumber(p95, 2), formatNumber(percentile(all, 0.99), 2)]]),
        ),
        "",
        markdownTable(
          ["Generate and load 100,000 conversations", "RSS after loading", "RSS after the searches", "peak RSS"],
          [[`${formatNumber(readyMs / 1000, 1)} s`, `${formatNumber(rssAfterLoadKb / 1024)} MiB`, `${formatNumber(rssKb / 1024)} MiB`, `${formatNumber(peakKb / 1024)} MiB`]],
        ),
      ].join("\n"),
      budgets: [
        { name: "sandbox search requests/s at least 5x Prism's", ok: ratio >= 5, detail: `median ${formatNumber(ratio, 2)}x over ${rounds} rounds (${ratios.map((value) => `${formatNumber(value, 2)}x`).join(", ")}; medians ${formatNumber(median(sandboxLoads.map((result) => result.requestsPerSecond)))} vs ${formatNumber(median(prismLoads.map((result) => result.requestsPerSecond)))} requests/s)` },
        { name: "search with filters at 100,000 conversations, p95 at most 10 ms", ok: p95 <= 10, detail: `p95 ${formatNumber(p95, 2)} ms` },
      ],
    };
  } finally {
    await large.stop();
  }
}
