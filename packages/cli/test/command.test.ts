import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { commands } from "../src/index.ts";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** Runs the built bin and resolves to its exit code and output, whatever the code. */
async function bin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [cli, ...args])
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));
}

describe("bot-conversation", () => {
  it("--help lists every command with an example, and exits 0", async () => {
    const result = await bin(["--help"]);
    expect(result.code).toBe(0);
    for (const [name, command] of Object.entries(commands)) {
      expect(result.stdout).toContain(`  ${name} `);
      expect(result.stdout).toContain(command.example);
    }
  });

  it("an unknown command is one line naming it and the commands there are, exit 2", async () => {
    const result = await bin(["serve"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual(['bot-conversation: unknown command "serve"; expected one of check, sandbox (see bot-conversation --help)']);
  });

  it("sandbox --help shows the sandbox's options with an example", async () => {
    const result = await bin(["sandbox", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: bot-conversation sandbox [options]");
    expect(result.stdout).toContain("--page-base <value>");
    expect(result.stdout).toContain("Example:");
  });

  it("sandbox serves the sandbox: a ready line, the service's rules, and a clean stop on SIGTERM", async () => {
    const child = spawn(process.execPath, [cli, "sandbox", "--port", "0", "--conversations", "5"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const ready = /Sandbox ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (ready) resolve(ready[1]!);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
      });
      const page = (await (await fetch(`${url}/api/v2/channels/conversations`, { headers: { "x-token": "sandbox-token" } })).json()) as { totalItemCount: number };
      expect(page.totalItemCount).toBe(5);
      expect((await fetch(`${url}/api/v2/channels/conversations`, { headers: { "x-token": "wrong" } })).status).toBe(401);
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      expect((await exited)[0]).toBe(0);
    }
  });

  it("sandbox with a bad option exits 2 with one line naming it", async () => {
    const result = await bin(["sandbox", "--port", "eighty"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('bot-conversation sandbox: --port / SANDBOX_PORT: expected an integer from 0 to 65535; got "eighty"');
  });

  it("on a Node.js older than the one it needs, one line naming the version it needs, exit 1", async () => {
    // This Node is new enough, so the check runs with a minimum above it.
    const check = `import { requireNode } from "@bot-conversation/sandbox/node-version"; requireNode("bot-conversation", [99, 0]); console.log("not reached");`;
    const result = await run(process.execPath, ["--input-type=module", "-e", check], { cwd: fileURLToPath(new URL("..", import.meta.url)) }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: `bot-conversation needs Node.js 99.0 or later; this is Node.js ${process.versions.node}.\n` });
  });
});
