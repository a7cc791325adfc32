/**
 * The builds a before-and-after comparison starts (`before-after.ts`): where each tree's commands are, what an
 * unbuilt one lacks, the comparison's settings from the environment, and the line a figure gives.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { load, type RoundsShape, rounds, warmUpSeconds } from "./sandbox-rounds.ts";

/** The section's title, and the start of its errors. */
export const title = "Before and after";
/** The token the sandboxes of both builds take (the sandbox's default, never a real one). */
export const token = "sandbox-token";
/** The parts of a tree the comparison starts, relative to its root. */
export const commandsOfTree = { sandbox: "packages/sandbox/dist/bin.js", cli: "packages/cli/dist/bin.js" } as const;
/** How to build a tree, said when one is not built. */
export const buildAdvice = "pnpm install --frozen-lockfile --offline && pnpm build";

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

/** One figure's line of the comparison: CPU per unit of work, round by round, of each build. */
export interface Figure {
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

/** A setting of the comparison from the environment: a positive number (an integer where `integer`), or `fallback`. */
function setting(name: string, fallback: number, what: string, integer = false): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value)))
    throw new Error(`bench ${title}: ${name} must be ${integer ? "a positive integer" : "a positive number"} (${what}); got "${text}"`);
  return value;
}

/** The comparison's settings: its rounds and windows, and the export's size. */
export interface Settings {
  readonly shape: RoundsShape;
  readonly firstWarmUpSeconds: number;
  readonly exportConversations: number;
}

/** The comparison's rounds, window seconds and export size: the sandbox benchmarks' unless the environment says. */
export function settingsOf(): Settings {
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
