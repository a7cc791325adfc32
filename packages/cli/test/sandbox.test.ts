import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const cli = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** Runs the built bin and resolves to its exit code and output, whatever the code. */
async function bin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [cli, ...args])
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));
}

describe("bot-conversation: the sandbox's own help and errors, and the Node check", () => {
  it("sandbox --help shows the sandbox's options with an example", async () => {
    const result = await bin(["sandbox", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: bot-conversation sandbox [options]");
    expect(result.stdout).toContain("--page-base <value>");
    expect(result.stdout).toContain("Example:");
  });

  it("sandbox with a bad option exits 2 with one line naming it", async () => {
    const result = await bin(["sandbox", "--port", "eighty"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('error: --port / SANDBOX_PORT: expected an integer from 0 to 65535; got "eighty"');
  });

  it("on a Node.js older than the one it needs, one line naming the version it needs, exit 1", async () => {
    // This Node is new enough, so the check runs with a minimum above it.
    const check = `import { requireNode } from "@bot-conversation/sandbox/node-version"; requireNode("bot-conversation", [99, 0]); console.log("not reached");`;
    const result = await run(process.execPath, ["--input-type=module", "-e", check], { cwd: fileURLToPath(new URL("..", import.meta.url)) }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: `bot-conversation needs Node.js 99.0 or later; this is Node.js ${process.versions.node}.\n` });
  });

  it.each([
    ["large", 10_000],
    ["empty", 0],
  ] as const)("sandbox --state %s starts and serves %i conversations (issue 29)", { timeout: 60_000 }, async (state, count) => {
    const child = spawn(process.execPath, [cli, "sandbox", "--port", "0", "--state", state], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, "exit");
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const match = /Sandbox ready at (\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        void exited.then(() => reject(new Error(`exited before it was ready:\n${output}`)));
      });
      const page = (await (await fetch(`${url}/api/v2/channels/conversations?pageSize=1`, { headers: { "x-token": "sandbox-token" } })).json()) as {
        totalItemCount: number;
      };
      expect(page.totalItemCount).toBe(count);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toEqual([0, null]);
  });

  it("sandbox passes --allow-origin and --allow-host on to the sandbox, which checks them", async () => {
    const result = await bin(["sandbox", "--allow-origin", "app.example.com"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('error: --allow-origin: expected an origin such as https://app.example.com; got "app.example.com"');
    const help = await bin(["sandbox", "--help"]);
    expect(help.stdout).toContain("--allow-origin <origin>");
    expect(help.stdout).toContain("--allow-host <name>");
  });
});
