import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startSandboxServer } from "@bot-conversation/sandbox";
import { checkReadmeExamples, readmeTypeScriptBlocks } from "@bot-conversation/test-support/readme-examples";
import { useSandboxServer } from "@bot-conversation/test-support/sandbox";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { describe, expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const sandbox = useSandboxServer(startSandboxServer, {});

/** Runs a README example as a module inside the package (so `@bot-conversation/query` resolves to its build), against the test's sandbox. */
async function run(index: number): Promise<string> {
  const blocks = await readmeTypeScriptBlocks(`${packageDir}README.md`);
  const directory = `${packageDir}test-results/readme/`;
  mkdirSync(directory, { recursive: true });
  const file = `${directory}example-${index}.ts`;
  writeFileSync(file, blocks[index]!.source.replaceAll("http://127.0.0.1:4011", sandbox().url));
  // Asynchronously: the sandbox answers from this process, so it must not be blocked while the example runs.
  const result = await promisify(execFile)(process.execPath, [file], { timeout: 30_000, env: { ...process.env, BOT_CONVERSATION_TOKEN: sandbox().token } });
  expect(result.stderr).toBe("");
  return result.stdout;
}

describe("README.md", () => {
  test("every ts example compiles against the built package", async () => {
    const examples = await checkReadmeExamples(packageDir);
    expect(examples).toHaveLength(2);
    expect(examples.filter((example) => example.diagnostics.length > 0)).toEqual([]);
  });

  test("the usage example walks the example bot's three conversations in two pages, lists its triggers and fires once", async () => {
    expect(await run(0)).toBe("2 3\norder-status-changed callback-requested\n");
    const fired = await fetch(`${sandbox().url}/_sandbox/fired-events`, { headers: { "X-Token": sandbox().token } });
    expect(((await fired.json()) as { externalEventId: string }[]).map((event) => event.externalEventId)).toEqual(["callback-requested"]);
  });

  test("the error example gets the client's NotFoundError through the query", async () => {
    expect(await run(1)).toBe("true 404\n");
  });
});
