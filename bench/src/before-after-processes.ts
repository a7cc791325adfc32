/**
 * The process figures of the before-and-after comparison (`before-after.ts`): the CLI's NDJSON export by each
 * build (its process's CPU per conversation) and each build's recorder over an export (its CPU per exchange and
 * its peak RSS), in alternating rounds against one sandbox.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { launchSandbox } from "@bot-conversation/sandbox";
import { type Build, type Figure, type Settings, title, token } from "./before-after-builds.ts";
import { cpuSecondsOf, pollPeakRss } from "./proc.ts";
import { type ProcessRun, reapedCpuSeconds, runToExit } from "./process-run.ts";
import { formatNumber } from "./report.ts";

/** Page size of the exports (our choice: the CLI bench's). */
export const exportPageSize = 500;
/** How long a recorder may take to print its ready line (a hang guard, our choice). */
const recorderReadyWithinMs = 60_000;

/** The lines of a file. */
function linesOf(path: string): number {
  const written = readFileSync(path);
  let lines = 0;
  for (let at = written.indexOf(10); at !== -1; at = written.indexOf(10, at + 1)) lines++;
  return lines;
}

/** The CLI's NDJSON export of the sandbox at `url` by `cliBin`, its lines checked to be `conversations`. */
async function exportBy(cliBin: string, url: string, conversations: number, stdoutPath: string): Promise<ProcessRun> {
  const run = await runToExit(
    `bot-conversation search --all of ${cliBin}`,
    [cliBin, "search", "--all", "--output", "ndjson", "--page-size", String(exportPageSize)],
    { BOT_CONVERSATION_BASE_URL: url, BOT_CONVERSATION_TOKEN: token },
    stdoutPath,
  );
  const lines = linesOf(stdoutPath);
  if (lines !== conversations) throw new Error(`bench ${title}: the export by ${cliBin} wrote ${lines} lines; expected ${conversations}`);
  return run;
}

/**
 * A build's recorder in front of the sandbox at `upstream` while `exporter` exports through it, then SIGTERM (its
 * files written): its CPU time from its ready line to its exit, and its peak RSS.
 */
async function recorderOver(build: Build, upstream: string, out: string, exporter: (url: string) => Promise<unknown>): Promise<ProcessRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [build.cliBin, "record", "--upstream", upstream, "--out", out, "--port", "0", "--salt", "bench", "--quiet"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit") as Promise<[number | null]>;
  // A hang guard, not a measurement: a recorder silent for a minute is stopped, and its run fails below.
  const silent = setTimeout(() => child.kill("SIGKILL"), recorderReadyWithinMs);
  let peak: ReturnType<typeof pollPeakRss> | undefined;
  try {
    let url: string | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      url = /Recorder ready at (\S+)/.exec(line)?.[1];
      if (url !== undefined) break;
    }
    clearTimeout(silent);
    if (url === undefined) throw new Error(`bench ${title}: the ${build.name} recorder exited with ${(await exited)[0]} before its ready line`);
    child.stdout.resume();
    const atReady = cpuSecondsOf(child.pid!).own;
    peak = pollPeakRss(child.pid!);
    await exporter(url);
    // The only child of the bench that exits from here on is the recorder.
    const { value, cpuSeconds } = await reapedCpuSeconds(async () => {
      child.kill("SIGTERM");
      return (await exited)[0];
    });
    const peakRssMiB = peak.stop();
    if (value !== 0) throw new Error(`bench ${title}: the ${build.name} recorder exited with ${value}`);
    return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSeconds - atReady, peakRssMiB };
  } finally {
    clearTimeout(silent);
    peak?.stop();
    // Whatever failed above, no recorder is left running.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
  }
}

/** A figure of process runs, round by round, per `units` of work each. */
function processFigure(name: string, unit: string, runs: { before: ProcessRun; after: ProcessRun; machineLoads: number[] }[], units: number): Figure {
  const micros = (run: ProcessRun) => (run.cpuSeconds * 1e6) / units;
  const peak = (build: "before" | "after") => formatNumber(Math.max(...runs.map((run) => run[build].peakRssMiB)), 1);
  return {
    name,
    unit,
    before: runs.map((run) => micros(run.before)),
    after: runs.map((run) => micros(run.after)),
    ratios: runs.map((run) => micros(run.before) / micros(run.after)),
    beforeRate: runs.map((run) => units / run.before.seconds),
    afterRate: runs.map((run) => units / run.after.seconds),
    machineLoads: runs.flatMap((run) => run.machineLoads),
    failed: 0,
    notes: `peak RSS ${peak("before")} MiB before, ${peak("after")} MiB after`,
  };
}

/** The export and the recorder figures, against one sandbox (the after build's) of `exportConversations`. */
export async function processFigures(builds: readonly [Build, Build], settings: Settings, scratch: string): Promise<Figure[]> {
  const conversations = settings.exportConversations;
  const sandbox = await launchSandbox(["--conversations", String(conversations)], { command: builds[1].sandboxBin, readyWithinMs: 300_000 });
  try {
    const exports: { before: ProcessRun; after: ProcessRun; machineLoads: number[] }[] = [];
    const recorders: typeof exports = [];
    for (let round = 0; round < settings.shape.rounds; round++) {
      // Alternating order: neither build always runs first.
      const order = round % 2 === 0 ? builds : ([builds[1], builds[0]] as const);
      const exported: Partial<Record<Build["name"], ProcessRun>> = {};
      const recorded: Partial<Record<Build["name"], ProcessRun>> = {};
      const exportLoads: number[] = [];
      const recorderLoads: number[] = [];
      for (const build of order) {
        exported[build.name] = await exportBy(build.cliBin, sandbox.url, conversations, join(scratch, "export.ndjson"));
        exportLoads.push(loadavg()[0]!);
      }
      for (const build of order) {
        const out = join(scratch, `recorded-${build.name}-${round}`);
        // The same export (the after build's CLI) through each build's recorder: only the recorder differs.
        recorded[build.name] = await recorderOver(build, sandbox.url, out, (url) =>
          exportBy(builds[1].cliBin, url, conversations, join(scratch, "recorded.ndjson")),
        );
        recorderLoads.push(loadavg()[0]!);
        rmSync(out, { recursive: true, force: true });
      }
      exports.push({ before: exported.before!, after: exported.after!, machineLoads: exportLoads });
      recorders.push({ before: recorded.before!, after: recorded.after!, machineLoads: recorderLoads });
    }
    const pages = Math.ceil(conversations / exportPageSize);
    return [
      processFigure(`CLI NDJSON export of ${formatNumber(conversations)} conversations (process start included)`, "conversation", exports, conversations),
      processFigure(`recorder over that export (${pages} exchanges of ${exportPageSize}; ready line to exit, files written)`, "exchange", recorders, pages),
    ];
  } finally {
    await sandbox.stop();
  }
}
