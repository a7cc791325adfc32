import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startSandboxServer, type RunningSandbox } from "../src/index.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const readme = readFileSync(new URL("README.md", `file://${root}`), "utf8");
/** The commands of the README's `sh` blocks, one per line (a `\` continues a line). */
const commands = [...readme.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((match) => match[1]!.replaceAll("\\\n", " ").split("\n")).map((line) => line.trim());
const sandboxCommands = commands.filter((command) => command.includes("127.0.0.1:4011"));
const mockCurl = commands.find((command) => command.startsWith("curl") && command.includes("127.0.0.1:4010"));

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer({ host: "127.0.0.1", port: 0 });
});
afterAll(() => sandbox.stop());

const openapiPackage = `${root}openapi`;
/**
 * Runs a README command with the sandbox's address in place of `http://127.0.0.1:4011`. What
 * `pnpm --filter @bot-conversation/openapi exec` does (run in that package, its `node_modules/.bin`
 * first on the PATH) is done here directly: the test does not depend on how pnpm was installed.
 */
async function runAgainstSandbox(command: string): Promise<string> {
  const inOpenapi = "pnpm --filter @bot-conversation/openapi exec ";
  const local = command.replaceAll("http://127.0.0.1:4011", sandbox.url);
  const { stdout } = await run("bash", ["-c", local.replace(inOpenapi, "")], {
    cwd: command.startsWith(inOpenapi) ? openapiPackage : root,
    env: { ...process.env, PATH: `${openapiPackage}/node_modules/.bin:${process.env["PATH"] ?? ""}`, NO_COLOR: "1" },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

describe("the root README's sandbox lines, run against a sandbox with its default data", () => {
  test("there are the curl lines and the respect line", () => {
    expect(sandboxCommands.filter((command) => command.startsWith("curl")).length).toBeGreaterThanOrEqual(2);
    expect(sandboxCommands.some((command) => command.includes("redocly respect"))).toBe(true);
  });

  test("every curl line answers a page with conversations", async () => {
    for (const command of sandboxCommands.filter((line) => line.startsWith("curl"))) {
      const page = JSON.parse(await runAgainstSandbox(command)) as { items: unknown[]; totalItemCount: number };
      expect(page.items.length, command).toBeGreaterThan(0);
    }
  });

  test("the mock's curl line, with the sandbox's token, finds the same bot's conversations", async () => {
    expect(mockCurl).toBeDefined();
    const page = JSON.parse(await runAgainstSandbox(mockCurl!.replace("http://127.0.0.1:4010", "http://127.0.0.1:4011").replace("mock-token", "sandbox-token"))) as { items: unknown[] };
    expect(page.items.length).toBe(3);
  });

  test("the respect line runs every workflow green", async () => {
    const output = await runAgainstSandbox(sandboxCommands.find((command) => command.includes("redocly respect"))!);
    expect(output).toMatch(/Workflows: (\d+) passed, \1 total/);
  });
});
