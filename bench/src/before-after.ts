/**
 * Before and after: the same figures on an earlier build (a worktree of an earlier commit, built beside this one)
 * and on this one, in one run, in alternating rounds under the same load: `pnpm bench -- --before <tree>`. Each
 * build is started from its own dist (`packages/sandbox/dist/bin.js`, `packages/cli/dist/bin.js` of its tree);
 * servers are compared by their process's CPU time per answer (/proc utime + stime, `server-load.ts`), the
 * export by its process's CPU per conversation, the recorder by its CPU per exchange and its peak RSS. Without
 * `--before` the section says in one line that it was not asked for and how to ask.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LaunchedSandbox, launchSandbox } from "@bot-conversation/sandbox";
import { type Build, buildAdvice, buildOf, commandsOfTree, type Figure, missingOf, type Settings, settingsOf, title, token } from "./before-after-builds.ts";
import { exportPageSize, processFigures } from "./before-after-processes.ts";
import { parameterExample } from "./fixtures.ts";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";
import { fireBody, firePath } from "./sandbox-data.ts";
import { type LoadTarget, load, roundsOf, searchPath } from "./sandbox-rounds.ts";
import { compareLoads, loadHeader, loadRow, type ServerLoad, times } from "./server-load.ts";

const headers = { "x-token": token };
/** The filtered search (our choice: two equality filters of the seed's search, on the default 200 conversations). */
const filteredQuery = "status=Active&channelId=platform";

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
  settings: Settings,
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
