/**
 * Install to first request: the packed packages installed with npm into an empty project, then
 * `npx bot-conversation-sandbox --port 0` until its first answered search; beside it, the baseline
 * measured in the same run: the same sandbox started from the workspace (already installed and built).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const run = promisify(execFile);
const workspaceRoot = fileURLToPath(new URL("../..", import.meta.url));
const packages = ["openapi", "types", "client", "sandbox", "conformance", "cli"].map((name) => `@bot-conversation/${name}`);

/** Spawns a sandbox command and resolves with the ms from the spawn to its first answered search. */
async function timeToFirstRequest(command: string, args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  // This Node first on the PATH, so npx and the bin's `#!/usr/bin/env node` run on it.
  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}` };
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /Sandbox ready at (\S+)/.exec(output);
        if (ready) resolve(ready[1]!);
      });
      child.once("exit", (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
    });
    const response = await fetch(`${url}/api/v2/channels/conversations`, { headers: { "x-token": "sandbox-token" } });
    if (response.status !== 200) throw new Error(`first search answered ${response.status}`);
    await response.arrayBuffer();
    return performance.now() - started;
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM");
  }
}

/** Measures the install of the packed packages and the first request, against the workspace start. */
export async function installToFirstRequest(): Promise<Section> {
  const scratch = await mkdtemp(join(tmpdir(), "bench-install-"));
  try {
    const baselineMs = await timeToFirstRequest(process.execPath, [join(workspaceRoot, "packages/sandbox/dist/bin.js"), "--port", "0"], workspaceRoot);
    await run("pnpm", [...packages.flatMap((name) => ["--filter", name]), "pack", "--pack-destination", join(scratch, "packs")], { cwd: workspaceRoot });
    const tarballs = (await readdir(join(scratch, "packs"))).map((name) => join(scratch, "packs", name));
    const app = join(scratch, "app");
    await run("mkdir", ["-p", app]);
    await writeFile(join(app, "package.json"), JSON.stringify({ name: "bench-app", private: true, type: "module" }));
    const installStarted = performance.now();
    // npm asks the registry for our packages' names though the tarballs are given (a 404 it takes in its
    // stride); where the registry or a proxy fails those requests instead, they are retried at once, not
    // after 10 s and then a minute each (npm's defaults), which once made this install take 9 minutes.
    const retryAtOnce = ["--fetch-retry-mintimeout=100", "--fetch-retry-maxtimeout=1000"];
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...retryAtOnce, ...tarballs], {
      cwd: app,
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env["PATH"] ?? ""}` },
    });
    const installMs = performance.now() - installStarted;
    const firstRequestMs = await timeToFirstRequest("npx", ["--no-install", "bot-conversation-sandbox", "--port", "0"], app);
    return {
      title: "Install to first request (packed sandbox)",
      method:
        "The six public packages packed with `pnpm pack`, then `npm install` of the tarballs into an empty project (npm's cache warm, `--prefer-offline`, failed registry requests retried at once), then `npx bot-conversation-sandbox --port 0` until its first search answers 200. Baseline in the same run: the built sandbox started from the workspace, spawn to first answered search.",
      table: markdownTable(
        ["Step", "time"],
        [
          ["npm install of the tarballs", `${formatNumber(installMs / 1000, 1)} s`],
          ["npx bot-conversation-sandbox to first answered search", `${formatNumber(firstRequestMs)} ms`],
          ["install to first request", `${formatNumber((installMs + firstRequestMs) / 1000, 1)} s`],
          ["baseline: the workspace's sandbox, spawn to first answered search", `${formatNumber(baselineMs)} ms`],
        ],
      ),
      budgets: [],
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
