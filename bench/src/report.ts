import { cpus, totalmem } from "node:os";
import { Bench, type Fn } from "tinybench";

/** A budget a benchmark checks against a baseline measured in the same run. */
export interface Budget {
  /** What is promised, in words. */
  name: string;
  /** Whether the measurement met it. */
  ok: boolean;
  /** The figures behind the verdict. */
  detail: string;
}

/** One benchmark's part of RESULTS.md. */
export interface Section {
  /** Heading of the section. */
  title: string;
  /** What was measured and how, in a sentence or two. */
  method: string;
  /** A markdown table of the figures. */
  table: string;
  /** Budgets checked in this section, if any. */
  budgets: Budget[];
}

/** Mean throughput (operations per second) and mean latency (ms) of one benchmark task. */
export interface Throughput {
  name: string;
  opsPerSecond: number;
  meanMs: number;
  relativeMarginOfError: number;
}

/** Runs tinybench tasks one after another and returns each task's throughput. */
export async function measure(tasks: Record<string, Fn>, timeMs = 2_000, warmupMs = 500): Promise<Throughput[]> {
  const bench = new Bench({ time: timeMs, warmupTime: warmupMs });
  for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`benchmark "${task.name}" did not complete: ${result.state}`);
    return {
      name: task.name,
      opsPerSecond: result.throughput.mean,
      meanMs: result.latency.mean,
      relativeMarginOfError: result.latency.rme,
    };
  });
}

/** A task's figures over several rounds: the median of the rounds' means, and how far apart the rounds were. */
export interface RoundsResult extends Throughput {
  /** Slowest round's mean over the fastest's. */
  spread: number;
}

/**
 * Runs the tasks in `rounds` rounds, in rotating order, so no task always runs first (cold) or right
 * after the same other task; each task's figure is the median of its rounds' means, which one slow
 * round (a GC, another process) does not move.
 */
export async function measureRounds(
  tasks: Record<string, Fn>,
  { rounds, timeMs, warmupMs = 500 }: { rounds: number; timeMs: number; warmupMs?: number },
): Promise<RoundsResult[]> {
  const names = Object.keys(tasks);
  const means = new Map(names.map((name) => [name, [] as number[]]));
  const margins = new Map(names.map((name) => [name, [] as number[]]));
  for (let round = 0; round < rounds; round += 1) {
    const order = names.map((_, offset) => names[(round + offset) % names.length]!);
    for (const result of await measure(Object.fromEntries(order.map((name) => [name, tasks[name]!])), timeMs, warmupMs)) {
      means.get(result.name)!.push(result.meanMs);
      margins.get(result.name)!.push(result.relativeMarginOfError);
    }
  }
  return names.map((name) => {
    const meanMs = median(means.get(name)!);
    return {
      name,
      meanMs,
      opsPerSecond: 1_000 / meanMs,
      relativeMarginOfError: median(margins.get(name)!),
      spread: Math.max(...means.get(name)!) / Math.min(...means.get(name)!),
    };
  });
}

/** Builds a markdown table from a header row and body rows. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]): string => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** Formats a number with thousands separators and a fixed number of decimals. */
export function formatNumber(value: number, decimals = 0): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The machine, runtime and date a run happened on, for the head of RESULTS.md. */
export function environment(): string {
  const cpu = cpus();
  return markdownTable(
    ["Machine", "Node", "Date"],
    [[`${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${formatNumber(totalmem() / 2 ** 30, 0)} GiB`, process.version, new Date().toISOString()]],
  );
}

/** Renders the whole RESULTS.md. */
export function renderResults(sections: Section[]): string {
  const budgets = sections.flatMap((section) => section.budgets);
  return [
    "# Benchmark results",
    "",
    "Written by `pnpm bench`; every figure compares against a baseline measured in the same run.",
    "",
    environment(),
    "",
    "## Budgets",
    "",
    markdownTable(
      ["Budget", "Met", "Figures"],
      budgets.map((budget) => [budget.name, budget.ok ? "yes" : "**no**", budget.detail]),
    ),
    "",
    ...sections.flatMap((section) => [`## ${section.title}`, "", section.method, "", section.table, ""]),
  ].join("\n");
}
