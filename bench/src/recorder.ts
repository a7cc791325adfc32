/**
 * The recorder (`bot-conversation record`, a process of its own) in front of the sandbox (its own
 * process): the latency it adds to one exchange (p50/p95 of searches through it against the same
 * searches sent to the sandbox directly, interleaved one for one), and its peak memory while the CLI
 * exports 100,000 conversations through it page by page, its files written at the end (the fixture
 * streamed one conversation a line). Budgets: at most 5 ms added at p50 (our choice: a page takes the
 * recorder one more loopback hop and a copy), and a peak RSS at 100,000 conversations of at most
 * 400 MiB and at most 1.25 times the peak at 20,000 (the summaries wait in a scratch file, not in memory).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchSandbox } from "@bot-conversation/sandbox";
import { pollPeakRss } from "./proc.ts";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const token = "sandbox-token";
const cliBin = fileURLToPath(import.meta.resolve("@bot-conversation/cli/package.json").replace(/package\.json$/, "dist/bin.js"));
const exchanges = 400;
const exportConversations = 100_000;
/** The export sizes whose peak memory is compared: a bounded recorder's peak does not grow with the conversations. */
const exportSizes = [20_000, exportConversations] as const;
const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
};

/** A recorder process in front of `upstream`; its ready URL, a poll of its peak RSS, and a stop by SIGTERM that waits for its files. */
async function startRecorderProcess(upstream: string, out: string) {
  const child = spawn(process.execPath, [cliBin, "record", "--upstream", upstream, "--out", out, "--port", "0", "--salt", "bench", "--quiet"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /Recorder ready at (\S+)/.exec(stdout)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`bench recorder: the recorder exited with ${code} before it was ready`)));
  });
  const peak = pollPeakRss(child.pid!);
  return {
    url,
    /** Sends SIGTERM and resolves once the files are written and the process has exited: its peak RSS in MiB and the seconds the stop took. */
    async stop(): Promise<{ peakRssMiB: number; stopSeconds: number }> {
      const started = performance.now();
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      const peakRssMiB = peak.stop();
      if (code !== 0) throw new Error(`bench recorder: the recorder exited with ${code}`);
      return { peakRssMiB, stopSeconds: (performance.now() - started) / 1000 };
    },
  };
}

/** The time of one search, in ms, its body read whole. */
async function searchMs(base: string, pageIndex: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/api/v2/channels/conversations?pageSize=20&pageIndex=${pageIndex}`, { headers: { "X-Token": token } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`bench recorder: search answered ${response.status}`);
  return performance.now() - started;
}

/** Runs the CLI's export through `base`; resolves once it has exited. */
async function exportThrough(base: string): Promise<void> {
  const child = spawn(process.execPath, [cliBin, "search", "--all", "--output", "ndjson", "--page-size", "500"], {
    env: { ...process.env, BOT_CONVERSATION_BASE_URL: base, BOT_CONVERSATION_TOKEN: token },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`bench recorder: the export exited with ${code}`);
}

/** The recorder's added latency per exchange, and its memory over a 100,000-conversation export. */
export async function recorderBenchmark(): Promise<Section> {
  const scratch = mkdtempSync(join(tmpdir(), "bench-recorder-"));
  const rows: (string | number)[][] = [];
  const budgets: Section["budgets"] = [];
  try {
    const small = await launchSandbox(["--conversations", "2000"]);
    try {
      const recorder = await startRecorderProcess(small.url, join(scratch, "latency"));
      const direct: number[] = [];
      const recorded: number[] = [];
      // Warm both paths (connections, compiled validators), then interleave one for one.
      for (let index = 0; index < 20; index++) await searchMs(small.url, index % 50), await searchMs(recorder.url, index % 50);
      for (let index = 0; index < exchanges; index++) {
        direct.push(await searchMs(small.url, index % 50));
        recorded.push(await searchMs(recorder.url, index % 50));
      }
      await recorder.stop();
      const added = percentile(recorded, 0.5) - percentile(direct, 0.5);
      rows.push(
        ["search (20 per page), sandbox directly", formatNumber(percentile(direct, 0.5), 2), formatNumber(percentile(direct, 0.95), 2), "", ""],
        ["the same through the recorder", formatNumber(percentile(recorded, 0.5), 2), formatNumber(percentile(recorded, 0.95), 2), "", ""],
        ["added by the recorder", formatNumber(added, 2), formatNumber(percentile(recorded, 0.95) - percentile(direct, 0.95), 2), "", ""],
      );
      budgets.push({ name: "the recorder adds at most 5 ms per exchange at p50", ok: added <= 5, detail: `${formatNumber(added, 2)} ms` });
    } finally {
      await small.stop();
    }
    const peaks: number[] = [];
    for (const conversations of exportSizes) {
      const sandbox = await launchSandbox(["--conversations", String(conversations)], { readyWithinMs: 300_000 });
      try {
        const out = join(scratch, `export-${conversations}`);
        const recorder = await startRecorderProcess(sandbox.url, out);
        const started = performance.now();
        await exportThrough(recorder.url);
        const exportSeconds = (performance.now() - started) / 1000;
        const { peakRssMiB, stopSeconds } = await recorder.stop();
        peaks.push(peakRssMiB);
        const fixtureMiB = statSync(join(out, "fixture.json")).size / 2 ** 20;
        const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as { operations: Record<string, Record<string, { exchanges: number }>> };
        const pages = report.operations["searchConversations"]?.["200"]?.exchanges ?? 0;
        rows.push([
          `export of ${formatNumber(conversations)} conversations through the recorder (${pages} pages of 500)`,
          "",
          "",
          `${formatNumber(exportSeconds, 1)} s (+ ${formatNumber(stopSeconds, 1)} s writing, fixture ${formatNumber(fixtureMiB, 1)} MiB)`,
          formatNumber(peakRssMiB, 1),
        ]);
      } finally {
        await sandbox.stop();
      }
    }
    const [smaller, larger] = peaks as [number, number];
    budgets.push(
      {
        name: `recorder peak RSS at most 400 MiB over a ${formatNumber(exportConversations)}-conversation export`,
        ok: larger <= 400,
        detail: `${formatNumber(larger, 1)} MiB`,
      },
      {
        name: `recorder memory bounded: peak RSS at ${formatNumber(exportConversations)} conversations at most 1.25 times the peak at ${formatNumber(exportSizes[0]!)}`,
        ok: larger <= 1.25 * smaller,
        detail: `${formatNumber(larger, 1)} / ${formatNumber(smaller, 1)} MiB = ${formatNumber(larger / smaller, 2)}`,
      },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    title: "Recorder",
    method: `\`bot-conversation record\` (its own process) in front of the sandbox (its own process, on 127.0.0.1). Latency: ${exchanges} searches of 20 conversations sent to the sandbox directly and ${exchanges} through the recorder, interleaved one for one after a warm-up, each timed with its body read; added = the recorder's percentile minus the direct one. Memory: \`bot-conversation search --all --page-size 500\` through the recorder over ${exportSizes.map((size) => formatNumber(size)).join(" and ")} conversations (a sandbox each), then SIGTERM (the files written); peak RSS is the recorder's VmHWM, polled every 20 ms.`,
    table: markdownTable(["Exchange", "p50 ms", "p95 ms", "time", "recorder peak RSS (MiB)"], rows),
    budgets,
  };
}
