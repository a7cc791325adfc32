import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The kit's own test servers: the sandbox in process, and a proxy that can break it.
import { type FaultyProxy, startFaultyProxy } from "../../conformance/test/support/faulty-proxy.ts";
import { fixtureBot, useSandbox } from "../../conformance/test/support/sandbox.ts";

const run = promisify(execFile);
/** The built bin, as npm links it. */
const cli = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));
const sandbox = useSandbox();

/** Runs the command and resolves to its exit code and output, whatever the code. */
async function command(args: string[], options: { cwd?: string; file?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const [file, prefix] = options.file === "pnpm" ? ["pnpm", ["bot-conversation"]] : [process.execPath, [cli]];
  return run(file, [...prefix, ...args], { cwd: options.cwd ?? root, env: { ...process.env, BOT_CONVERSATION_TOKEN: "" } })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));
}

describe("bot-conversation check", () => {
  let http: FaultyProxy;
  let broken: FaultyProxy;
  let directory: string;
  beforeAll(async () => {
    http = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch });
    broken = await startFaultyProxy(
      { baseUrl: "http://sandbox.test", fetch: sandbox().fetch },
      { request: (_, headers) => void headers.set("x-token", "sandbox-token") },
    );
    directory = await mkdtemp(join(tmpdir(), "conformance-"));
  });
  afterAll(async () => {
    await http.close();
    await broken.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("exits 0 when every check holds, and writes the JSON and JUnit reports", async () => {
    const json = join(directory, "report.json");
    const junit = join(directory, "report.xml");
    const result = await command([
      "check",
      "--base-url",
      http.url,
      "--token",
      "sandbox-token",
      "--agent-stage-id",
      fixtureBot,
      "--seed",
      "4",
      "--rate",
      "0",
      "--json",
      json,
      "--junit",
      junit,
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(await readFile(json, "utf8")) as { passed: boolean; seed: number; checks: { status: string }[] };
    expect(report).toMatchObject({ passed: true, seed: 4 });
    // The counts are the report's own checks (the catalog grows; the line must follow it).
    const counted = (status: string) => report.checks.filter((check) => check.status === status).length;
    expect(counted("passed")).toBeGreaterThan(0);
    expect(result.stdout).toContain(`Result: every check that ran held (${counted("passed")} passed, 0 failed, 0 not judged, ${counted("not run")} not run).`);
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain('name="paging_walk"');
    expect(xml).not.toContain("<failure");
    // No progress bar when stderr is not a terminal.
    expect(result.stderr).toBe("");
  });

  it("exits 1 when a check fails, with a reproduction that shows $BOT_CONVERSATION_TOKEN and never the token", async () => {
    const result = await command(["check", "--base-url", broken.url, "--token", "sandbox-token", "--seed", "4", "--rate", "0"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ ignored_auth/);
    expect(result.stdout).toContain(`curl -sS -i -H 'Accept: application/json' '${broken.url}/api/v2/channels/conversations'`);
    expect(result.stdout).not.toContain("sandbox-token");
  });

  it("shows a progress bar on a terminal (a real pseudo-terminal, through script)", async () => {
    const line = [process.execPath, cli, "check", "--base-url", http.url, "--token", "sandbox-token", "--max-requests", "60"]
      .map((word) => `'${word}'`)
      .join(" ");
    const { stdout } = await run("script", ["-qec", line, "/dev/null"], { cwd: root });
    expect(stdout).toMatch(/\d+\/60 requests \| searchConversations/);
    expect(stdout).toContain("Result: every check that ran held");
  });

  it("is the workspace command: pnpm bot-conversation check from the repo root", async () => {
    const result = await command(["check", "--base-url", http.url, "--token", "sandbox-token", "--max-requests", "40"], { file: "pnpm" });
    expect(result.stdout).toContain("The request budget (--max-requests) ran out");
    expect(result.code).toBe(0);
  });

  it.each([
    [["check", "--token", "usage-token"], "--base-url"],
    [["check", "--base-url", "http://127.0.0.1:1"], "--token"],
    [["check", "--base-url", "http://127.0.0.1:1", "--token", "usage-token", "--rate", "fast"], "--rate"],
    [["check", "--base-url", "not a url", "--token", "usage-token"], "baseUrl"],
    [["check", "--base-url", "http://127.0.0.1:1", "--token", "usage-token", "--allow-fire"], "conversationId"],
    [["inspect"], "unknown command"],
  ])("exits 2 on bad usage %j, naming %s", async (args, named) => {
    const result = await command(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(named);
  });

  it("check --help shows an example, as every command's help does", async () => {
    const result = await command(["check", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nExamples?:\n {2}bot-conversation check /);
  });

  it("exits 2 when the server refuses the token, without printing it", async () => {
    const result = await command(["check", "--base-url", http.url, "--token", "not-the-sandbox-token"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("refused the token");
    expect(result.stderr + result.stdout).not.toContain("not-the-sandbox-token");
  });

  it("exits 2 when the server is unreachable", async () => {
    const server = createServer().listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const result = await command(["check", "--base-url", `http://127.0.0.1:${port}`, "--token", "secret-1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unreachable.*ECONNREFUSED/);
    expect(result.stderr).not.toContain("secret-1");
  });

  it("stops cleanly on Ctrl-C and prints the partial report", async () => {
    // Interrupt once the run is under way: after the server has seen ten requests.
    let seen = 0;
    let underWay!: () => void;
    const started = new Promise<void>((resolve) => (underWay = resolve));
    const counting = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, { request: () => void (++seen === 10 && underWay()) });
    try {
      const child = spawn(process.execPath, [cli, "check", "--base-url", counting.url, "--token", "sandbox-token", "--rate", "20"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = once(child, "exit");
      await started;
      child.kill("SIGINT");
      const [code] = (await exited) as [number];
      expect(code).toBe(130);
      expect(stdout).toContain("Interrupted: this report covers what ran before the stop.");
      expect(stdout).toMatch(/✓ not_a_server_error\s+\d+ passed/);
      expect(seen).toBeLessThan(100);
    } finally {
      await counting.close();
    }
  });
});
