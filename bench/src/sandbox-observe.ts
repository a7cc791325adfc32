/**
 * What the sandbox's logs and metrics cost a search: the same searches through the same engine, in process,
 * without the observer (as the MSW handlers open the sandbox), through it with its metrics alone
 * (`createSandbox`, quiet), and with a JSON log line per request as the command writes them when a machine runs
 * it: to a pipe that another process reads to its end (`cat`, as a log shipper reads a container's stdout), in
 * rotating rounds in the same run. Each is measured by this process's CPU time per answer (`process.cpuUsage`:
 * every thread of it, so work handed to the thread pool or to the GC's helpers counts), wall time as
 * information. With `--before <tree>` (a built worktree of an earlier commit), the same three of that tree's
 * build run in the same rounds, and each is compared with this build's by CPU per answer.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, constants, createWriteStream, mkdtempSync, openSync, rmSync, type WriteStream } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as thisBuild from "@bot-conversation/sandbox";
import { createSandboxHandlers } from "@bot-conversation/sandbox/msw";
import { type Budget, formatNumber, markdownTable, median, type Section } from "./report.ts";

/** A filtered search of the default data, as a client sends it. */
const searchUrl = "http://127.0.0.1:4011/api/v2/channels/conversations?status=Active&pageSize=20";
const headers = { "x-token": "sandbox-token" };
/**
 * Rounds counted (a first, uncounted one warms every variant up), and each variant's time in a round; a run by hand
 * may ask for more or shorter ones (`OBSERVE_ROUNDS`, `OBSERVE_WINDOW_MS`).
 */
const rounds = Number(process.env["OBSERVE_ROUNDS"] ?? 7);
const windowMs = Number(process.env["OBSERVE_WINDOW_MS"] ?? 1_000);

/** What the section needs of a build of the sandbox package. */
interface SandboxBuild {
  readonly createSandbox: typeof thisBuild.createSandbox;
  readonly createLogger: typeof thisBuild.createLogger;
  readonly flushLogs: typeof thisBuild.flushLogs;
  readonly createSandboxHandlers: typeof createSandboxHandlers;
}

/** The build of an earlier tree, from its own `dist/` (so with its own pino and prom-client). */
async function buildOfTree(root: string): Promise<SandboxBuild> {
  const dist = join(resolve(root), "packages/sandbox/dist");
  const [index, msw] = await Promise.all([import(pathToFileURL(join(dist, "index.js")).href), import(pathToFileURL(join(dist, "msw.js")).href)]);
  return { ...(index as typeof thisBuild), createSandboxHandlers: (msw as { createSandboxHandlers: typeof createSandboxHandlers }).createSandboxHandlers };
}

/**
 * A pipe (a FIFO, as a shell's `|` makes: Node's own child pipes are socket pairs) that a `cat` process reads to
 * its end (to /dev/null). The write end is opened non-blocking, as Node leaves a pipe on stdout, and is a file
 * descriptor, so `createLogger` takes the path it takes for the command's stdout.
 */
async function pipeToReader(): Promise<{ stream: WriteStream; close(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), "bench-observe-"));
  const path = join(folder, "log");
  execFileSync("mkfifo", [path]);
  // Opened for reading and writing (Linux), so that neither end waits for the other to open; it never reads.
  const holder = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  const reader = spawn("cat", [path], { stdio: ["ignore", "ignore", "inherit"] });
  await once(reader, "spawn");
  const exited = once(reader, "exit");
  const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return {
    stream: createWriteStream("", { fd, autoClose: false }),
    close: async () => {
      closeSync(fd);
      closeSync(holder);
      await exited;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** One variant measured: its searches' CPU and wall time per answer in each counted round. */
interface Variant {
  readonly build: "this build" | "before";
  readonly name: string;
  readonly search: () => Promise<void>;
  readonly cpuMicros: number[];
  readonly wallMicros: number[];
}

/** Searches one after another for `windowMs`: this process's CPU time and the wall time per answer. */
async function window(search: () => Promise<void>): Promise<{ cpuMicros: number; wallMicros: number }> {
  let answers = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < windowMs) {
    await search();
    answers++;
  }
  const used = process.cpuUsage(cpu);
  return { cpuMicros: (used.user + used.system) / answers, wallMicros: ((performance.now() - started) * 1000) / answers };
}

/** The three observed paths of one build, searched in process, with the log to `log`. */
async function variantsOf(build: SandboxBuild, name: Variant["build"], log: WriteStream): Promise<{ variants: Variant[]; sandboxes: thisBuild.Sandbox[] }> {
  const options = { conversations: 2_000 };
  const sandboxes: Record<string, thisBuild.Sandbox> = {
    "no observer (as the MSW handlers open it)": await build.createSandboxHandlers(options).sandbox,
    "metrics (createSandbox, quiet)": await build.createSandbox(options),
    "metrics and a JSON log line per request (as the command, to a pipe read by another process)": await build.createSandbox({
      ...options,
      logger: await build.createLogger(log, "json"),
    }),
  };
  const search = (sandbox: thisBuild.Sandbox) => async () => {
    const response = await sandbox.fetch(searchUrl, { headers });
    if (response.status !== 200) throw new Error(`a search answered ${response.status}`);
    await response.arrayBuffer();
  };
  return {
    variants: Object.entries(sandboxes).map(([variant, sandbox]) => ({ build: name, name: variant, search: search(sandbox), cpuMicros: [], wallMicros: [] })),
    sandboxes: Object.values(sandboxes),
  };
}

const spreadOf = (values: readonly number[]) => Math.max(...values) / Math.min(...values);
const times = (value: number) => `x${formatNumber(value, 3)}`;

/** The sandbox's observed paths against none, searched in process; with `before`, that tree's build beside. */
export async function sandboxObserve(before?: string): Promise<Section> {
  const builds: [SandboxBuild, Variant["build"]][] = [[{ ...thisBuild, createSandboxHandlers }, "this build"]];
  if (before !== undefined) builds.push([await buildOfTree(before), "before"]);
  // Each build's log has a reader of its own.
  const readers = await Promise.all(builds.map(() => pipeToReader()));
  const opened = await Promise.all(builds.map(([build, name], index) => variantsOf(build, name, readers[index]!.stream)));
  const variants = opened.flatMap(({ variants }) => variants);
  const machineLoads: number[] = [];
  try {
    // Round 0 warms every variant up and is not counted; the order turns each round.
    for (let round = 0; round <= rounds; round++) {
      for (let offset = 0; offset < variants.length; offset++) {
        const variant = variants[(round + offset) % variants.length]!;
        const figures = await window(variant.search);
        if (round === 0) continue;
        variant.cpuMicros.push(figures.cpuMicros);
        variant.wallMicros.push(figures.wallMicros);
        machineLoads.push(loadavg()[0]!);
      }
    }
  } finally {
    await Promise.all(opened.flatMap(({ sandboxes }) => sandboxes.map((sandbox) => sandbox.close())));
    for (const [build] of builds) build.flushLogs();
    await Promise.all(readers.map((reader) => reader.close()));
  }

  const [none, metrics, logged] = variants as [Variant, Variant, Variant];
  const noneCpu = median(none.cpuMicros);
  // Within noise: the observed search's median CPU per answer is no further from the unobserved one's than the
  // unobserved search's own rounds are from each other (its dearest round over its cheapest).
  const budgets: Budget[] = [metrics, logged].map((variant) => {
    const cpu = median(variant.cpuMicros);
    return {
      name: `a search with ${variant === metrics ? "the metrics" : "the metrics and the log"} within the noise of one without (its rounds' spread)`,
      ok: cpu <= noneCpu * spreadOf(none.cpuMicros),
      detail: `${formatNumber(cpu, 1)} µs of CPU per answer against ${formatNumber(noneCpu, 1)} µs (${times(cpu / noneCpu)}, ${formatNumber(Math.abs(cpu - noneCpu), 1)} µs ${cpu >= noneCpu ? "more" : "less"}); the unobserved rounds' spread ${times(spreadOf(none.cpuMicros))}; load ${formatNumber(Math.min(...machineLoads), 1)}–${formatNumber(Math.max(...machineLoads), 1)}`,
    };
  });
  const thisBuilds = variants.filter((variant) => variant.build === "this build");
  const tables = [
    markdownTable(
      [
        "Search (this build)",
        "CPU µs per answer",
        "Against none, by CPU",
        "CPU µs more than none (median of the rounds' differences)",
        "Rounds' spread, by CPU",
        "Wall µs per answer (information)",
      ],
      thisBuilds.map((variant) => [
        variant.name,
        formatNumber(median(variant.cpuMicros), 1),
        times(median(variant.cpuMicros) / noneCpu),
        // Each round's difference is taken within the round, so a round that the machine made dearer for all moves it less.
        formatNumber(median(variant.cpuMicros.map((cpu, round) => cpu - none.cpuMicros[round]!)), 1),
        times(spreadOf(variant.cpuMicros)),
        formatNumber(median(variant.wallMicros), 1),
      ]),
    ),
  ];
  if (before !== undefined) {
    const earlier = variants.filter((variant) => variant.build === "before");
    tables.push(
      markdownTable(
        [
          "Search, before and after",
          "Before: CPU µs per answer",
          "After: CPU µs per answer",
          "Before over after (median of the rounds' ratios)",
          "Rounds' ratios",
        ],
        thisBuilds.map((after, index) => {
          const previous = earlier[index]!;
          const ratios = after.cpuMicros.map((cpu, round) => previous.cpuMicros[round]! / cpu);
          return [
            after.name,
            formatNumber(median(previous.cpuMicros), 1),
            formatNumber(median(after.cpuMicros), 1),
            times(median(ratios)),
            `${times(Math.min(...ratios))}–${times(Math.max(...ratios))}`,
          ];
        }),
      ),
    );
  }
  return {
    title: "Sandbox search: the cost of logs and metrics",
    method: `The same filtered search (\`status=Active&pageSize=20\` over 2,000 conversations) through \`sandbox.fetch\` in process, with no observer, with the metrics (a counter and a histogram per request, the request id), and with the metrics and a pino JSON line per request written as the command writes its stdout when a machine runs it: batched into a non-blocking pipe that another process (\`cat\`) reads to its end. Measured by the bench process's CPU time per answer (\`process.cpuUsage\`, every thread: the thread pool and the GC's helpers count; the reader's own CPU does not), ${rounds} rotating rounds of ${windowMs / 1000} s after one uncounted round, the median of the rounds; within noise means no further from the unobserved median than the unobserved rounds are from each other; the machine's 1-minute load ${formatNumber(Math.min(...machineLoads), 1)}–${formatNumber(Math.max(...machineLoads), 1)}.${before === undefined ? "" : " With `--before`, the same three of the earlier tree's build (its own `dist/`) in the same rounds, compared by CPU per answer (above 1: this build spends less)."}`,
    table: tables.join("\n\n"),
    budgets,
  };
}
