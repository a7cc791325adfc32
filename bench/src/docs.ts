/** The reference site: the time to build it, and its size on disk and gzipped. */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const workspaceRoot = fileURLToPath(new URL("../..", import.meta.url));
const docsDist = join(workspaceRoot, "apps", "docs", "dist");

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const kilobytes = (bytes: number): string => `${formatNumber(bytes / 1024, 1)} kB`;

/** Builds the docs package once, timed, and sizes its output. */
export async function docsSite(): Promise<Section> {
  const started = performance.now();
  const run = spawnSync("pnpm", ["--filter", "@bot-conversation/docs", "run", "build"], { cwd: workspaceRoot, encoding: "utf8" });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`docs build failed:\n${run.stdout}\n${run.stderr}`);
  // The precompressed copies (.br, .gz) are other forms of the files listed; a visit fetches one form.
  const rows = filesUnder(docsDist)
    .filter((path) => !/\.(br|gz)$/.test(path))
    .map((path) => {
      const content = readFileSync(path);
      return { file: relative(docsDist, path), raw: content.length, gzipped: gzipSync(content, { level: 9 }).length };
    });
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzipped: sum.gzipped + row.gzipped }), { raw: 0, gzipped: 0 });
  return {
    title: "API reference site",
    method: "`pnpm --filter @bot-conversation/docs run build`, timed once; every file of `apps/docs/dist`, raw and gzipped (level 9).",
    table: [
      markdownTable(["Build time"], [[`${formatNumber(ms / 1000, 1)} s`]]),
      "",
      markdownTable(
        ["File", "raw", "gzipped"],
        [...rows.map((row) => [row.file, kilobytes(row.raw), kilobytes(row.gzipped)]), ["**total**", kilobytes(total.raw), kilobytes(total.gzipped)]],
      ),
    ].join("\n"),
    budgets: [],
  };
}
