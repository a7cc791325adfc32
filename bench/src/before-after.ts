/**
 * Before and after: the same figures on an earlier build (a worktree of an earlier commit, built beside this one)
 * and on this one, in one run, in alternating rounds under the same load: `pnpm bench -- --before <tree>`. Each
 * build is started from its own dist (`packages/sandbox/dist/bin.js`, `packages/cli/dist/bin.js` of its tree);
 * servers are compared by their process's CPU time per answer (/proc utime + stime, `server-load.ts`), the
 * export by its process's CPU per conversation, the recorder by its CPU per exchange and its peak RSS. Without
 * `--before` the section says in one line that it was not asked for and how to ask.
 */

import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type LaunchedSandbox, launchSandbox } from "@bot-conversation/sandbox";
import { parameterExample } from "./fixtures.ts";
import { cpuSecondsOf, pollPeakRss } from "./proc.ts";
import { type ProcessRun, reapedCpuSeconds, runToExit } from "./process-run.ts";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";
import { fireBody, firePath } from "./sandbox-data.ts";
import { type LoadTarget, load, type RoundsShape, rounds, roundsOf, searchPath, warmUpSeconds } from "./sandbox-rounds.ts";
import { compareLoads, loadHeader, loadRow, type ServerLoad, times } from "./server-load.ts";

const title = "Before and after";
const token = "sandbox-token";
const headers = { "x-token": token };
/** The parts of a tree the comparison starts, relative to its root. */
const commandsOfTree = { sandbox: "packages/sandbox/dist/bin.js", cli: "packages/cli/dist/bin.js" } as const;
/** How to build a tree, said when one is not built. */
const buildAdvice = "pnpm install --frozen-lockfile --offline && pnpm build";
/** Page size of the exports (our choice: the CLI bench's). */
const exportPageSize = 500;
/** How long a recorder may take to print its ready line (a hang guard, our choice). */
const recorderReadyWithinMs = 60_000;
/** The filtered search (our choice: two equality filters of the seed's search, on the default 200 conversations). */
const filteredQuery = "status=Active&channelId=platform";

/** A built tree: its root and the commands the comparison starts from its dist. */
export interface Build {
  readonly name: "before" | "after";
  readonly root: string;
  readonly sandboxBin: string;
  readonly cliBin: string;
}

/** The build of the tree at `root`. */
export function buildOf(name: Build["name"], root: string): Build {
  const absolute = resolve(root);
  return { name, root: absolute, sandboxBin: join(absolute, commandsOfTree.sandbox), cliBin: join(absolute, commandsOfTree.cli) };
}

/** The commands a build lacks, relative to its root (none: it can be compared). */
export function missingOf(build: Build): string[] {
  return Object.values(commandsOfTree).filter((path) => !existsSync(join(build.root, path)));
}

/** A setting of the comparison from the environment: a positive number (an integer where `integer`), or `fallback`. */
function setting(name: string, fallback: number, what: string, integer = false): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new Error(`bench ${title}: ${name} must be ${integer ? "a positive integer" : "a positive number"} (${what}); got "${text}"`);
  return value;
}

/** The comparison's rounds, window seconds and export size: the sandbox benchmarks' unless the environment says. */
export function settingsOf(): { shape: RoundsShape; firstWarmUpSeconds: number; exportConversations: number } {
  const durationSeconds = setting("BENCH_ROUND_SECONDS", load.durationSeconds, "seconds of each measured window");
  return {
    shape: {
      rounds: setting("BENCH_ROUNDS", rounds, "rounds per figure", true),
      durationSeconds,
      eachRoundWarmUpSeconds: Math.min(warmUpSeconds.eachRound, durationSeconds),
    },
    firstWarmUpSeconds: Math.min(warmUpSeconds.first, 2 * durationSeconds),
    exportConversations: setting("BENCH_EXPORT_CONVERSATIONS", 20_000, "conversations of the export figures", true),
  };
}

/** One figure's line of the comparison: CPU per unit of work, round by round, of each build. */
interface Figure {
  readonly name: string;
  /** What the CPU time is divided by: answer, conversation, exchange. */
  readonly unit: string;
  readonly before: number[];
  readonly after: number[];
  /** Each round's before over after, by CPU per unit (above 1: the after build spends less). */
  readonly ratios: number[];
  /** Units per second of each build, each round (information). */
  readonly beforeRate: number[];
  readonly afterRate: number[];
  /** The machine's 1-minute load average at the end of each window, in the order they ran. */
  readonly machineLoads: number[];
  /** Answers other than 2xx, and connection errors, of both builds (a server figure's; 0 for a process's, which fails the run instead). */
  readonly failed: number;
  /** What else to know of it: the failed answers of each build, peak RSS. */
  readonly notes: string;
}

/** A server figure: what each build's server answers, loaded in alternating rounds. */
interface ServerFigure {
  readonly name: string;
  readonly request: Parameters<typeof roundsOf>[1];
}

const fire = (target: LoadTarget) => ({
  url: `${target.url}${firePath}`,
  method: "POST" as const,
  body: fireBody,
  headers: { ...headers, "content-type": "application/json" },
  connections: 16,
});
const get = (path: string) => (target: LoadTarget) => ({ url: `${target.url}${path}`, headers, connections: load.connections });

/** The figures of a sandbox in memory (its default 200 conversations) and of one with `--data`. */
const memoryFigures: ServerFigure[] = [
  { name: "search, no filters", request: get(searchPath) },
  { name: `search, filtered (${filteredQuery})`, request: get(`${searchPath}?${filteredQuery}`) },
  { name: "fire, 16 at once", request: fire },
  { name: "trigger list (the example bot)", request: get(`/api/v1/runtime/simple/external/events/${parameterExample("AgentStageIdPath")}`) },
];
const dataFigures: ServerFigure[] = [
  { name: "search with --data", request: get(searchPath) },
  { name: "fire with --data, 16 at once", request: fire },
];

/** A build's sandbox (started from its own dist) as a load target. */
const targetOf = (sandbox: LaunchedSandbox): LoadTarget => ({ url: sandbox.url, pid: sandbox.process.pid! });

/** Runs `figures` on a sandbox of each build started with `args`, in alternating rounds; always stops them. */
async function serverFigures(
  builds: readonly [Build, Build],
  args: (build: Build) => string[],
  figures: readonly ServerFigure[],
  settings: ReturnType<typeof settingsOf>,
  loads: (string | number)[][],
): Promise<Figure[]> {
  const sandboxes: LaunchedSandbox[] = [];
  try {
    for (const build of builds) sandboxes.push(await launchSandbox(args(build), { command: build.sandboxBin }));
    const results: Figure[] = [];
    for (const figure of figures) {
      const [before, after] = (await roundsOf(sandboxes.map(targetOf), figure.request, settings.firstWarmUpSeconds, settings.shape)) as [
        ServerLoad[],
        ServerLoad[],
      ];
      const compared = compareLoads(figure.name, after, before, times);
      // Windows ran in turning order: round r's first window is build r % 2's.
      const machineLoads = before.flatMap((load, round) => (round % 2 === 0 ? [load, after[round]!] : [after[round]!, load]).map((each) => each.machineLoad));
      const failed = (each: readonly ServerLoad[]) => each.reduce((sum, load) => sum + load.non2xx + load.errors, 0);
      results.push({
        name: figure.name,
        unit: "answer",
        before: before.map((load) => load.serverCpuMicrosPerRequest),
        after: after.map((load) => load.serverCpuMicrosPerRequest),
        ratios: compared.byCpu.rounds,
        beforeRate: before.map((load) => load.requestsPerSecond),
        afterRate: after.map((load) => load.requestsPerSecond),
        machineLoads,
        failed: failed(before) + failed(after),
        notes: failed(before) + failed(after) === 0 ? "" : `answers not 2xx or failed: ${failed(before)} before, ${failed(after)} after`,
      });
      for (let round = 0; round < before.length; round++)
        loads.push(loadRow(round, `${figure.name}, before`, before[round]!), loadRow(round, `${figure.name}, after`, after[round]!));
    }
    return results;
  } finally {
    await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
  }
}

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
async function processFigures(builds: readonly [Build, Build], settings: ReturnType<typeof settingsOf>, scratch: string): Promise<Figure[]> {
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

/** The one line of a section that did not compare. */
const notRun = (line: string, budgets: Section["budgets"] = []): Section => ({ title, method: line, table: "", budgets });

/** The comparison, when `beforeRoot` names an earlier tree; otherwise a section saying how to ask for it. */
export async function beforeAndAfter(beforeRoot: string | undefined): Promise<Section> {
  if (beforeRoot === undefined) {
    const line = `Not asked for: \`pnpm bench -- --before <an earlier commit's worktree, built>\` runs each figure on that build and on this one (see bench/README.md).`;
    console.log(`bench: ${title}: ${line}`);
    return notRun(line);
  }
  const builds = [buildOf("before", beforeRoot), buildOf("after", fileURLToPath(new URL("../../", import.meta.url)))] as const;
  for (const build of builds) {
    const missing = missingOf(build);
    if (missing.length > 0) {
      const what = existsSync(build.root) ? `lacks ${missing.join(" and ")}` : "does not exist";
      const line = `Not run: the ${build.name} tree ${build.root} ${what} (build it there: \`${buildAdvice}\`).`;
      console.log(`bench: ${title}: ${line}`);
      return notRun(line, [{ name: `${title}: the ${build.name} tree is built`, ok: false, detail: line }]);
    }
  }
  const settings = settingsOf();
  const scratch = mkdtempSync(join(tmpdir(), "bench-before-after-"));
  const loads: (string | number)[][] = [];
  try {
    const figures = [
      ...(await serverFigures(builds, () => [], memoryFigures, settings, loads)),
      ...(await serverFigures(builds, (build) => ["--data", join(scratch, `${build.name}.db`)], dataFigures, settings, loads)),
      ...(await processFigures(builds, settings, scratch)),
    ];
    const list = (values: number[], format: (value: number) => string) => values.map(format).join(", ");
    const { shape } = settings;
    return {
      title,
      method: `The same figures on two builds in one run: before, ${builds[0].root}, and after, this tree (${builds[1].root}), each started from its own dist (${Object.values(commandsOfTree).join(", ")}), in ${shape.rounds} rounds whose order alternates, under the same load. Servers (the sandbox in memory with its default 200 conversations, and with --data, a file of its own per build): autocannon in a process of its own, ${load.connections} connections (16 for fires), ${shape.durationSeconds} s windows after a warm-up (${settings.firstWarmUpSeconds} s before a build's first window, ${shape.eachRoundWarmUpSeconds} s before the others); CPU is the server process's own (/proc utime + stime) over the window, per answer. The export: \`bot-conversation search --all --output ndjson --page-size ${exportPageSize}\` of each build's CLI against one sandbox (the after build's) of ${formatNumber(settings.exportConversations)} conversations, stdout to a file, its lines counted; CPU is the process's from start to exit, per conversation. The recorder: each build's \`bot-conversation record\` in front of that sandbox while the after build's CLI exports through it, then SIGTERM (its files written); CPU from its ready line to its exit, per exchange, and its peak RSS (VmHWM). Columns: each build's CPU µs per unit of work (median of the rounds); after over before, the before build's CPU per unit over the after build's, round by round (above 1x, the after build spends less), and their median; units per second of each (information: it moves with the rest of the machine); the machine's 1-minute load average at the end of each window, in the order they ran.`,
      table: [
        markdownTable(
          [
            "Figure",
            "before CPU µs per unit",
            "after CPU µs per unit",
            "after over before, by CPU (median; rounds)",
            "per second, before / after",
            "machine load (1 min) at each window",
            "notes",
          ],
          figures.map((figure) => [
            `${figure.name}; per ${figure.unit}`,
            formatNumber(median(figure.before), 1),
            formatNumber(median(figure.after), 1),
            `**${times(median(figure.ratios))}** (${list(figure.ratios, times)})`,
            `${formatNumber(median(figure.beforeRate))} / ${formatNumber(median(figure.afterRate))}`,
            list(figure.machineLoads, (value) => formatNumber(value, 2)),
            figure.notes,
          ]),
        ),
        "",
        markdownTable(loadHeader("Figure, build"), loads),
      ].join("\n"),
      budgets: [
        {
          name: `${title}: every answer of the compared loads a 2xx`,
          ok: figures.every((figure) => figure.failed === 0),
          detail:
            figures
              .filter((figure) => figure.failed > 0)
              .map((figure) => `${figure.name}: ${figure.notes}`)
              .join("; ") || "all of them",
        },
      ],
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
