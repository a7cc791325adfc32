/**
 * The build: wall time of a cold `turbo run build` (every task run, no cache read), and the warm
 * rerun, which must be a full turbo cache hit.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const workspaceRoot = fileURLToPath(new URL("../..", import.meta.url));

function turboBuild(...flags: string[]): { ms: number; cached: number; total: number } {
  const started = performance.now();
  const run = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only", ...flags], { cwd: workspaceRoot, encoding: "utf8" });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`turbo run build ${flags.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
  const match = /Cached:\s+(\d+) cached, (\d+) total/.exec(run.stdout);
  if (!match) throw new Error(`turbo printed no cache summary:\n${run.stdout}`);
  return { ms, cached: Number(match[1]), total: Number(match[2]) };
}

/** Measures a cold and a warm build. */
export async function buildTimes(): Promise<Section> {
  const cold = turboBuild("--force");
  const warm = turboBuild();
  return {
    title: "Build",
    method: "`turbo run build --force` runs every build task without reading the cache (cold); `turbo run build` right after is the warm rerun.",
    table: markdownTable(
      ["Run", "wall time", "tasks cached"],
      [
        ["cold", `${formatNumber(cold.ms / 1000, 1)} s`, `${cold.cached} of ${cold.total}`],
        ["warm", `${formatNumber(warm.ms / 1000, 1)} s`, `${warm.cached} of ${warm.total}`],
      ],
    ),
    budgets: [
      {
        name: "warm rebuild is a full turbo cache hit",
        ok: warm.total > 0 && warm.cached === warm.total,
        detail: `${warm.cached} of ${warm.total} tasks cached`,
      },
    ],
  };
}
