import { execFile } from "node:child_process";
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
    expect(result.stderr.trim()).toBe('bot-conversation sandbox: --port / SANDBOX_PORT: expected an integer from 0 to 65535; got "eighty"');
  });

  it("on a Node.js older than the one it needs, one line naming the version it needs, exit 1", async () => {
    // This Node is new enough, so the check runs with a minimum above it.
    const check = `import { requireNode } from "@bot-conversation/sandbox/node-version"; requireNode("bot-conversation", [99, 0]); console.log("not reached");`;
    const result = await run(process.execPath, ["--input-type=module", "-e", check], { cwd: fileURLToPath(new URL("..", import.meta.url)) }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: `bot-conversation needs Node.js 99.0 or later; this is Node.js ${process.versions.node}.\n` });
  });
});
