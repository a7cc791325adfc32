import { readFileSync } from "node:fs";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type RunningSandbox, startSandboxServer } from "../src/index.ts";
import { runAgainstSandbox as runCommand, shellCommands } from "./support/readme-commands.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const commands = shellCommands(readFileSync(new URL("../../../README.md", import.meta.url), "utf8"));
const sandboxCommands = commands.filter((command) => command.includes("127.0.0.1:4011"));
const mockCurl = commands.find((command) => command.startsWith("curl") && command.includes("127.0.0.1:4010"));

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandboxServer({ host: "127.0.0.1", port: 0 });
});
afterAll(() => sandbox.stop());
const runAgainstSandbox = (command: string) => runCommand(command, sandbox.url);

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
    const page = JSON.parse(
      await runAgainstSandbox(mockCurl!.replace("http://127.0.0.1:4010", "http://127.0.0.1:4011").replace("mock-token", "sandbox-token")),
    ) as { items: unknown[] };
    expect(page.items.length).toBe(3);
  });

  test("the respect line runs every workflow green", async () => {
    const output = await runAgainstSandbox(sandboxCommands.find((command) => command.includes("redocly respect"))!);
    expect(output).toMatch(/Workflows: (\d+) passed, \1 total/);
  });
});
