/**
 * The repository's `pnpm start` (`scripts/start.ts`, which checks ports with this package's
 * `isPortFree`): ports from flags and variables, one line for a busy port, and the ready lines first.
 */
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify, stripVTControlCharacters } from "node:util";
import { hangGuardMs, heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const launcher = fileURLToPath(new URL("../../../scripts/start.ts", import.meta.url));
const readyLine = /^(Mock|Sandbox|Reference) ready at (http:\/\/127\.0\.0\.1:(\d+))/;

/** A program's exit code and output (colours left out: pnpm's reporter colours even into a pipe). */
type Outcome = { code: number; stdout: string; stderr: string };

/** Runs a program and resolves to its exit code and output. */
async function outcome(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Outcome> {
  const plain = (code: number, stdout: string, stderr: string) => ({
    code,
    stdout: stripVTControlCharacters(stdout),
    stderr: stripVTControlCharacters(stderr),
  });
  return run(file, args, options)
    .then(({ stdout, stderr }) => plain(0, stdout, stderr))
    .catch((error: Outcome) => plain(error.code, error.stdout, error.stderr));
}

/** Runs the launcher with Node, as pnpm does. */
const launch = (args: string[], env: NodeJS.ProcessEnv = {}) => outcome(process.execPath, [launcher, ...args], { cwd: root, env: { ...process.env, ...env } });

/**
 * Runs pnpm (10.34.9, the workspace's) in a folder. The variables pnpm gave the test run (`npm_*`, `pnpm_*`:
 * `pnpm exec vitest` turns verifyDepsBeforeRun off in them) are left out, as in a terminal.
 */
const pnpm = (cwd: string, args: string[]) =>
  outcome("pnpm", args, { cwd, env: Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^p?npm_/i.test(name))) });

describe("pnpm start, with a port already taken", () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it.each([
    ["--mock-port", {}, "Mock", "--mock-port", "MOCK_PORT"],
    ["SANDBOX_PORT", { SANDBOX_PORT: "taken" }, "Sandbox", "--sandbox-port", "SANDBOX_PORT"],
    ["--docs-port", {}, "Reference", "--docs-port", "DOCS_PORT"],
  ])("given by %s: one line naming the server, the port and how to pick another; exit 1, nothing started", async (given, env, name, flag, variable) => {
    const args = given.startsWith("--") ? [given, String(port)] : [];
    const environment = Object.fromEntries(Object.entries(env).map(([key]) => [key, String(port)]));
    const result = await launch(args, environment);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`${name}: port ${port} on 127.0.0.1 is in use; pick another with pnpm start -- ${flag} <port> (or ${variable}=<port>).\n`);
  });

  it("all three busy: one line naming every busy server and port and how to pick others; exit 1, nothing started", async () => {
    const others = await Promise.all(
      [0, 1].map(async () => {
        const server = createServer().listen(0, "127.0.0.1");
        await once(server, "listening");
        return server;
      }),
    );
    try {
      const [sandboxPort, docsPort] = others.map((server) => (server.address() as { port: number }).port);
      const result = await launch(["--mock-port", String(port), "--docs-port", String(docsPort)], { SANDBOX_PORT: String(sandboxPort) });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `Ports in use: Mock ${port} on 127.0.0.1, Sandbox ${sandboxPort} on 127.0.0.1, Reference ${docsPort} on 127.0.0.1; ` +
          "pick others with pnpm start -- --mock-port <port> --sandbox-port <port> --docs-port <port> (or MOCK_PORT=<port> SANDBOX_PORT=<port> DOCS_PORT=<port>).\n",
      );
    } finally {
      for (const server of others) server.close();
    }
  });

  it("run as the README runs it (`pnpm start`): the busy-ports line alone, nothing from pnpm, exit 1", async () => {
    const result = await pnpm(root, ["start", "--", "--mock-port", String(port)]);
    // pnpm 10 would add its `> bot-conversation-toolkit@ start` header and `ELIFECYCLE  Command failed with exit
    // code 1.`: the workspace's .pnpmfile.cjs gives the root's start pnpm's silent reporter.
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `Mock: port ${port} on 127.0.0.1 is in use; pick another with pnpm start -- --mock-port <port> (or MOCK_PORT=<port>).\n`,
    });
  });

  it("a port that is not a number is one line naming the flag, exit 2", async () => {
    const result = await launch(["--docs-port", "web"]);
    expect([result.code, result.stderr]).toEqual([2, 'pnpm start: --docs-port / DOCS_PORT: expected an integer from 0 to 65535; got "web"\n']);
  });

  it("--help says what it serves, with an example", async () => {
    const result = await launch(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("pnpm start -- --mock-port 5010 --sandbox-port 5011 --docs-port 5080");
  });
});

/**
 * What the workspace's .pnpmfile.cjs leaves to pnpm, in a workspace of its own with the root's .pnpmfile.cjs and
 * .npmrc and verifyDepsBeforeRun, and a dependency no install can resolve (offline: a workspace package that is not
 * there): the install `pnpm start` runs first shows its error, as `pnpm install` does; any other script's failure
 * keeps pnpm's ELIFECYCLE line.
 */
describe("pnpm start's silent reporter leaves the rest of pnpm alone", () => {
  let workspace: string;
  const manifest = (dependencies: Record<string, string>) =>
    JSON.stringify({ name: "silent-start", private: true, scripts: { start: "node -e 'process.exit(1)'", other: "node -e 'process.exit(1)'" }, dependencies });
  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), "start-silent-"));
    for (const file of [".pnpmfile.cjs", ".npmrc"]) await copyFile(join(root, file), join(workspace, file));
    await writeFile(join(workspace, "pnpm-workspace.yaml"), 'packages:\n  - "."\nverifyDepsBeforeRun: install\n');
    await writeFile(join(workspace, "package.json"), manifest({ "not-in-the-workspace": "workspace:*" }));
  });
  afterAll(() => rm(workspace, { recursive: true, force: true }));

  it("the install before pnpm start shows its error, as pnpm install does; exit 1", async () => {
    for (const args of [["start"], ["install"]]) {
      const result = await pnpm(workspace, args);
      expect({ args, code: result.code, output: result.stdout + result.stderr }).toEqual({
        args,
        code: 1,
        output: expect.stringMatching(/ERR_PNPM_WORKSPACE_PKG_NOT_FOUND\s+In : "not-in-the-workspace@workspace:\*" is in the dependencies/),
      });
    }
  });

  it("installed, a failing start is silent (exit 1) and another script's failure still says ELIFECYCLE", async () => {
    await writeFile(join(workspace, "package.json"), manifest({}));
    expect(await pnpm(workspace, ["start"])).toEqual({ code: 1, stdout: "", stderr: "" });
    const other = await pnpm(workspace, ["run", "other"]);
    expect([other.code, other.stdout + other.stderr]).toEqual([1, expect.stringMatching(/ELIFECYCLE\s+Command failed with exit code 1\./)]);
  });
});

describe("pnpm start on free ports", () => {
  it.each([
    // --no-build: the tests' own turbo run has built everything, and a second build of the same
    // packages at the same time would race it (a build empties its dist/ first).
    ["flags", ["--", "--no-build", "--mock-port", "0", "--sandbox-port", "0", "--docs-port", "0"], {}],
    ["variables", ["--", "--no-build"], { MOCK_PORT: "0", SANDBOX_PORT: "0", DOCS_PORT: "0" }],
    // On GitHub Actions turbo groups a task's output until the task ends (a server's never does): start.ts streams it.
    ["flags on GitHub Actions", ["--", "--no-build", "--mock-port", "0", "--sandbox-port", "0", "--docs-port", "0"], { GITHUB_ACTIONS: "true" }],
  ])("ports from %s are honoured, at most ten lines come before the three ready lines, and Ctrl-C stops all three", async (_given, args, env) => {
    const child = spawn("pnpm", ["start", ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    try {
      const urls = await new Promise<string[]>((resolve, reject) => {
        const collect = (chunk: Buffer) => {
          output += chunk.toString();
          const ready = output.split("\n").flatMap((line) => readyLine.exec(line)?.[2] ?? []);
          if (ready.length === 3) resolve(ready);
        };
        child.stdout.on("data", collect);
        child.stderr.on("data", collect);
        child.once("exit", (code) => reject(new Error(`pnpm start exited with ${code}:\n${output}`)));
        // The three servers are ready in about 15 s on an idle machine; past the guard, something hangs.
        const guardMs = hangGuardMs(15_000);
        setTimeout(() => reject(new Error(`no three ready lines within ${guardMs} ms:\n${output}`)), guardMs).unref();
      });
      // Port 0 was passed through: each server took a free port, none its default.
      expect(urls.map((url) => new URL(url).port).filter((port) => ["4010", "4011", "8080"].includes(port))).toEqual([]);
      const lines = output.split("\n");
      const lastReady = lines.findLastIndex((line) => readyLine.test(line));
      expect(lines.slice(0, lastReady + 1).filter((line) => !readyLine.test(line)).length).toBeLessThanOrEqual(10);
      for (const url of urls)
        expect((await fetch(url, { method: "OPTIONS", headers: { origin: url, "access-control-request-method": "GET" } })).status).toBeLessThan(500);
      const exited = once(child, "exit");
      process.kill(-child.pid!, "SIGINT");
      await exited;
      for (const url of urls) await expect(fetch(url)).rejects.toThrow();
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already stopped.
      }
    }
  });
});

/**
 * The first-run line: the launcher copied into a workspace of its own (one package with a build and
 * no `dist/` yet, or with one), with a stand-in for turbo that prints the three ready lines at once:
 * a real first build takes minutes, and only the launcher's line before it is under test.
 */
describe("pnpm start on a first run", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), "start-first-run-"));
    await mkdir(join(workspace, "scripts"));
    await mkdir(join(workspace, "apps", "mock", "src"), { recursive: true });
    await mkdir(join(workspace, "packages", "built"), { recursive: true });
    await mkdir(join(workspace, "bin"));
    await copyFile(launcher, join(workspace, "scripts", "start.ts"));
    await copyFile(join(root, "apps", "mock", "src", "port.ts"), join(workspace, "apps", "mock", "src", "port.ts"));
    await mkdir(join(workspace, "packages", "client", "src"), { recursive: true });
    await copyFile(join(root, "packages", "client", "src", "port.ts"), join(workspace, "packages", "client", "src", "port.ts"));
    await mkdir(join(workspace, "openapi"));
    await writeFile(join(workspace, "openapi", "package.json"), JSON.stringify({ name: "built-on-first-run", scripts: { build: "true" } }));
    // The stand-in for turbo prints the ready lines, then what the sandbox would be told of the reference.
    // A package that builds into generated/, not dist/ (as packages/peer-tools does), built already.
    await mkdir(join(workspace, "packages", "peer", "generated"), { recursive: true });
    await writeFile(join(workspace, "packages", "peer", "package.json"), JSON.stringify({ name: "peer", scripts: { build: "true" } }));
    await writeFile(join(workspace, "packages", "peer", "turbo.json"), JSON.stringify({ tasks: { build: { outputs: ["generated/**"] } } }));
    await writeFile(join(workspace, "packages", "peer", "generated", "bundle.js"), "");
    await copyFile(join(root, "turbo.json"), join(workspace, "turbo.json"));
    await writeFile(
      join(workspace, "bin", "turbo"),
      '#!/bin/sh\nfor name in Mock Sandbox Reference; do echo "$name ready at http://127.0.0.1:1"; done\necho "reference for the sandbox: $SANDBOX_REFERENCE_URL"\n',
      { mode: 0o755 },
    );
  });
  afterAll(() => rm(workspace, { recursive: true, force: true }));

  const startOnce = (docsPort = "0") =>
    run(process.execPath, [join(workspace, "scripts", "start.ts"), "--mock-port", "0", "--sandbox-port", "0", "--docs-port", docsPort], {
      cwd: workspace,
      env: { ...process.env, PATH: `${join(workspace, "bin")}:${process.env["PATH"]}` },
    });

  it("says the builds take a few minutes before anything else while a package has never been built, and not once built", async () => {
    const first = await startOnce();
    expect(first.stdout.split("\n")[0]).toBe(
      "first run: building every package, a few minutes (quiet; --verbose shows the builds), then the three ready lines",
    );
    expect(first.stdout).toContain("Reference ready at ");
    // An empty dist/ is not a build (a build interrupted after emptying it).
    await mkdir(join(workspace, "openapi", "dist"));
    expect((await startOnce()).stdout).toContain("first run");
    await writeFile(join(workspace, "openapi", "dist", "openapi.json"), "{}");
    const later = await startOnce();
    // Built: openapi into dist/, peer into generated/ (no dist/ of its own, as its turbo.json declares).
    expect(later.stdout).not.toContain("first run");
    expect(later.stdout.split("\n")[0]).toMatch(readyLine);
  });

  it("tells the sandbox where the reference is served (SANDBOX_REFERENCE_URL), from --docs-port; not for any free port (0)", async () => {
    const server = createServer().listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    expect((await startOnce(String(port))).stdout).toContain(`reference for the sandbox: http://127.0.0.1:${port}/\n`);
    expect((await startOnce("0")).stdout).toContain("reference for the sandbox: \n");
  });
});
