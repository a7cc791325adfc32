/**
 * The sandbox: search requests per second against Prism's, with the same load generator and
 * concurrency in the same run; time to generate and load 100,000 conversations; search with filters
 * at 100,000 conversations (p50/p95/p99); and the sandbox's resident memory at 100,000.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { defaultMockOptions, startMockOnFreePort } from "@bot-conversation/mock";
import { launchSandbox } from "@bot-conversation/sandbox";
import autocannon from "autocannon";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const searchPath = "/api/v2/channels/conversations";
/** The same load as the Prism mock's row: autocannon, 10 connections, 10 s, the search operation. */
const load = { connections: 10, durationSeconds: 10 };
const largeCount = 100_000;
const filteredRequests = { warmUp: 40, measured: 480 };

async function searchLoad(url: string, token: string): Promise<autocannon.Result> {
  return autocannon({ url: `${url}${searchPath}`, headers: { "X-Token": token }, connections: load.connections, duration: load.durationSeconds });
}

function loadRow(name: string, result: autocannon.Result): (string | number)[] {
  return [name, formatNumber(result.requests.average), formatNumber(result.latency.p50, 1), formatNumber(result.latency.p99, 1), result.non2xx, result.errors];
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
  const prismLoad = await searchLoad(mock.url, token).finally(() => mock.stop());
  const small = await launchSandbox([]);
  const sandboxLoad = await searchLoad(small.url, token).finally(() => small.stop());

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
    const ratio = sandboxLoad.requests.average / prismLoad.requests.average;
    const rssKb = memoryOf(large.process.pid!, "VmRSS");
    const peakKb = memoryOf(large.process.pid!, "VmHWM");
    return {
      title: "Sandbox",
      method: `The sandbox (node:sqlite) and Prism, each in its own process on 127.0.0.1, under the same autocannon load (${load.connections} connections, ${load.durationSeconds} s, the search operation without filters; the sandbox with its default 200 conversations). Then a sandbox started with --conversations ${formatNumber(largeCount)}: time from spawning it to its ready line (generating, inserting and indexing the data); ${filteredRequests.measured} searches with filters sent one at a time over loopback after ${filteredRequests.warmUp} to warm up, round-trip times; resident memory from /proc.`,
      table: [
        markdownTable(["Server", "requests/s", "p50 ms", "p99 ms", "non-2xx", "errors"], [loadRow("Prism mock, search", prismLoad), loadRow("sandbox, search", sandboxLoad)]),
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
        { name: "sandbox search requests/s at least 5x Prism's", ok: ratio >= 5, detail: `${formatNumber(ratio, 2)}x (${formatNumber(sandboxLoad.requests.average)} vs ${formatNumber(prismLoad.requests.average)} requests/s)` },
        { name: "search with filters at 100,000 conversations, p95 at most 10 ms", ok: p95 <= 10, detail: `p95 ${formatNumber(p95, 2)} ms` },
      ],
    };
  } finally {
    await large.stop();
  }
}
