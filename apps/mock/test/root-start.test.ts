/**
 * The repository's `pnpm start` (`scripts/start.ts`, which checks ports with this package's
 * `isPortFree`): ports from flags and variables, one line for a busy port, and the ready lines first.
 */
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const launcher = fileURLToPath(new URL("../../../scripts/start.ts", import.meta.url));
const readyLine = /^(Mock|Sandbox|Reference) ready at (http:\/\/127\.0\.0\.1:(\d+))/;

/** Runs the launcher with Node, as pnpm does, and resolves to its exit code and output. */
async function launch(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [launcher, ...args], { cwd: root, env: { ...process.env, ...env } })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));
}

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

describe("pnpm start on free ports", () => {
  it.each([
    // --no-build: the tests' own turbo run has built everything, and a second build of the same
    // packages at the same time would race it (a build empties its dist/ first).
    ["flags", ["--", "--no-build", "--mock-port", "0", "--sandbox-port", "0", "--docs-port", "0"], {}],
    ["variables", ["--", "--no-build"], { MOCK_PORT: "0", SANDBOX_PORT: "0", DOCS_PORT: "0" }],
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
        setTimeout(() => reject(new Error(`no three ready lines within 120 s:\n${output}`)), 120_000).unref();
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
