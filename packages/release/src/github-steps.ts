/**
 * A workflow job's `run:` steps, run here as GitHub's runner runs them: each step's text written to a file and
 * run as `bash -e <file>` from the repository's root, so a file a step calls by its path runs only with the mode
 * it was committed with; in the machine's environment as the runner has it (none of what a package manager that
 * started this process put in it: its folders on PATH, `npm_*`, `INIT_CWD`, ...), with the variables GitHub sets
 * that steps read, and the step's own `env`; a step's `if:` decided from the outcomes before it. A step
 * that `uses:` an action is GitHub's own (checkout, setup-node) and is not run here.
 *
 * It is how `.ci/run` runs CI: ci.yml's steps, written once, run on a clean clone by this file (its
 * `node github-steps.ts <workflow> <job>`), each step's outcome kept in `test-results/ci-steps.json` for the totals.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { parse } from "yaml";

/** One step of a job, as a workflow writes it. */
export interface Step {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  readonly shell?: string;
  readonly "working-directory"?: string;
}

/** What a step came to, as GitHub names it (`steps.<id>.outcome`). */
export type Outcome = "success" | "failure" | "skipped";

/** A step's name as GitHub shows it: its `name`, else `Run <first line>`. */
export const stepName = (step: Step): string => step.name ?? `Run ${(step.run ?? step.uses ?? "").split("\n")[0]}`;

/**
 * Whether a step with this `if:` runs, given the outcomes of the steps before it (by id) and whether one failed.
 * The forms GitHub's steps here use, joined by `&&`: `success()` (GitHub's default: nothing failed before),
 * `failure()`, `always()`, `cancelled()` and `!cancelled()` (a run here is never cancelled), and
 * `steps.<id>.outcome == '<outcome>'` (or `!=`). Any other expression is refused, naming it: a workflow that
 * needs more says so here rather than run a step GitHub would not.
 */
export function runsIf(condition: string | undefined, outcomes: ReadonlyMap<string, Outcome>, failedBefore: boolean): boolean {
  const text = (condition ?? "success()").trim().replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  return text.split("&&").every((term) => {
    const part = term.trim();
    if (part === "success()") return !failedBefore;
    if (part === "failure()") return failedBefore;
    if (part === "always()" || part === "!cancelled()") return true;
    if (part === "cancelled()") return false;
    const compared = /^steps\.([\w-]+)\.outcome\s*(==|!=)\s*'(success|failure|skipped)'$/.exec(part);
    if (compared) return (outcomes.get(compared[1]!) === compared[3]) === (compared[2] === "==");
    throw new Error(
      `if: ${condition}: "${part}" is not an expression this runner decides (success(), failure(), always(), cancelled(), steps.<id>.outcome == '...')`,
    );
  });
}

/** The machine's PATH, without the folders a package manager put before it (as setup-node leaves it on GitHub). */
export function machinePath(path = process.env["PATH"] ?? ""): string {
  return path
    .split(delimiter)
    .filter((folder) => !folder.includes("node_modules"))
    .join(delimiter);
}

/** Whether a variable is one a package manager (npm, pnpm) put in the environment of the script it ran. */
const packageManagers = (name: string): boolean => /^(npm_|pnpm_|PNPM_)/i.test(name) || ["INIT_CWD", "NODE", "NODE_PATH"].includes(name);

/** The machine's environment as a runner's step gets it: without what a package manager added, with the machine's PATH. */
export function machineEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const kept = Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && !packageManagers(entry[0]));
  return { ...Object.fromEntries(kept), PATH: machinePath(env["PATH"]) };
}

/** Where a step runs: the repository's root, GitHub's runner temporary folder, and how its output is kept. */
export interface StepPlace {
  readonly checkout: string;
  readonly runnerTemp: string;
  /** `inherit`: the step writes to this process's output as it goes (CI); `capture`: kept and returned (tests). */
  readonly output: "inherit" | "capture";
}

/** Runs one `run:` step as GitHub does (see the file's comment): its exit code and, when captured, its output. */
export async function runAsGitHub(step: Step, place: StepPlace): Promise<{ code: number | null; output: string }> {
  if (step.shell !== undefined || step["working-directory"] !== undefined) {
    throw new Error(`${stepName(step)}: names its own shell or folder, which this runner does not follow`);
  }
  const script = join(place.runnerTemp, `step-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(script, step.run ?? "");
  const env = {
    ...machineEnvironment(),
    HOME: process.env["HOME"] ?? place.runnerTemp,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: place.checkout,
    RUNNER_TEMP: place.runnerTemp,
    GITHUB_STEP_SUMMARY: join(place.runnerTemp, "step-summary.md"),
    ...step.env,
  };
  const stdio = place.output === "inherit" ? (["ignore", "inherit", "inherit"] as const) : (["ignore", "pipe", "pipe"] as const);
  const child = spawn("bash", ["-e", script], { cwd: place.checkout, env, stdio: [...stdio] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "close")) as [number | null];
  return { code, output };
}

/** A job's steps, from a workflow file. */
export function jobSteps(workflowFile: string, job: string): Step[] {
  const workflow = parse(readFileSync(workflowFile, "utf8")) as { jobs?: Record<string, { steps?: Step[] }> };
  const steps = workflow.jobs?.[job]?.steps;
  if (steps === undefined) throw new Error(`${workflowFile}: no job "${job}" with steps`);
  return steps;
}

/**
 * Runs a job's steps in order, as GitHub would, from `checkout`: every outcome is written to `outcomesFile` (by
 * step name, `true` for success) as soon as the step ends, so that a later step (the totals) reads those before
 * it. A line before each step names it, and one after each but the last says how it ended (the last step's own
 * output is the run's last line). Returns whether every step that ran succeeded.
 */
export async function runJob(
  steps: readonly Step[],
  checkout: string,
  outcomesFile: string,
  { log = console.log, output = "inherit" }: { log?: (line: string) => void; output?: StepPlace["output"] } = {},
): Promise<boolean> {
  const runnerTemp = mkdtempSync(join(tmpdir(), "github-steps-"));
  const outcomes = new Map<string, Outcome>();
  const kept: Record<string, boolean> = {};
  let failed = false;
  try {
    for (const [index, step] of steps.entries()) {
      const name = stepName(step);
      const last = index === steps.length - 1;
      if (step.uses !== undefined) {
        log(`ci: step "${name}": GitHub's action, not run here`);
        continue;
      }
      let outcome: Outcome = "skipped";
      if (runsIf(step.if, outcomes, failed)) {
        log(`ci: step "${name}"`);
        const started = Date.now();
        const { code } = await runAsGitHub(step, { checkout, runnerTemp, output });
        outcome = code === 0 ? "success" : "failure";
        failed ||= outcome === "failure";
        kept[name] = outcome === "success";
        mkdirSync(resolve(outcomesFile, ".."), { recursive: true });
        writeFileSync(outcomesFile, JSON.stringify(kept, null, 2));
        if (!last) log(`ci: step "${name}": ${outcome} (exit ${code}, ${Math.round((Date.now() - started) / 1000)} s)`);
      } else if (!last) {
        log(`ci: step "${name}": skipped (if: ${step.if ?? "success()"})`);
      }
      if (step.id !== undefined) outcomes.set(step.id, outcome);
    }
  } finally {
    rmSync(runnerTemp, { recursive: true, force: true });
  }
  return !failed;
}

if (import.meta.main) {
  const [workflowFile, job] = process.argv.slice(2);
  if (workflowFile === undefined || job === undefined) {
    console.error("usage: node github-steps.ts <workflow file> <job>   (from the repository's root)");
    process.exit(2);
  }
  const ok = await runJob(jobSteps(workflowFile, job), process.cwd(), join(process.cwd(), "test-results", "ci-steps.json"));
  process.exit(ok ? 0 : 1);
}
