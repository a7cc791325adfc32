import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace's root, where `turbo.json` and turbo's own binary are. */
const workspaceRoot = fileURLToPath(new URL("../../../", import.meta.url));

interface TurboFile {
  readonly tasks?: Record<string, { readonly dependsOn?: readonly string[] }>;
}

const readTurbo = (directory: string): TurboFile | undefined => {
  const file = join(directory, "turbo.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as TurboFile) : undefined;
};

/**
 * The tasks turbo runs before a package's `test` (its `dependsOn`, the package's own `turbo.json` over the
 * root's), as `turbo run` takes them: `build` of the package (which builds every dependency first),
 * `typecheck`, and another package's task by its `package#task`. `^task` is left to the package's own task
 * of that name, and a task without a script (`transit`, which only carries inputs into the hash) is left out.
 */
export function tasksBeforeTests(packageDirectory: string): string[] {
  const dependsOn = readTurbo(packageDirectory)?.tasks?.["test"]?.dependsOn ?? readTurbo(workspaceRoot)?.tasks?.["test"]?.dependsOn ?? [];
  return [...new Set(dependsOn.map((task) => task.replace(/^\^/, "")))].filter((task) => task !== "transit");
}

/**
 * Vitest's global set-up for every package: a test run that turbo did not start (`pnpm --filter <package> test`,
 * `pnpm test` or `pnpm exec vitest run` inside a package) first runs, through turbo, what turbo runs before the
 * package's `test`, so the tests never read a stale `dist/` of a dependency nor pass without their type check.
 * A turbo run (the workspace's `pnpm test`) has done it already (turbo sets `TURBO_HASH` for each task it runs);
 * with nothing changed it is turbo replaying its cache, a second or two.
 */
export default function buildDependencies(project: { readonly config: { readonly root: string } }): void {
  if (process.env["TURBO_HASH"] !== undefined) return;
  const directory = project.config.root;
  const { name } = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { name: string };
  const tasks = tasksBeforeTests(directory);
  if (tasks.length === 0) return;
  const turbo = join(workspaceRoot, "node_modules", ".bin", "turbo");
  const args = ["run", ...tasks, `--filter=${name}`, "--output-logs=errors-only", "--log-prefix=none"];
  process.stderr.write(`${name}: turbo ${args.join(" ")} (what its tests depend on, as \`pnpm test\` runs it)\n`);
  const run = spawnSync(turbo, args, { cwd: workspaceRoot, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (run.status !== 0) {
    process.stderr.write(`${run.stdout}${run.stderr}`);
    throw new Error(`${name}: turbo ${args.join(" ")} failed (exit ${run.status ?? run.signal}); its output is above. The tests did not run.`);
  }
}
