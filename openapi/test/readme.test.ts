import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { checkReadmeExamples, readmeTypeScriptBlocks } from "@bot-conversation/test-support/readme-examples";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";
import { searchParameterNames } from "./support/description.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

const packageDir = fileURLToPath(new URL("..", import.meta.url));

test("the runtime example of README.md compiles against the built package", async () => {
  const examples = await checkReadmeExamples(packageDir);
  expect(examples).toHaveLength(1);
  expect(examples.filter((example) => example.diagnostics.length > 0)).toEqual([]);
});

test("the runtime example runs as written: the search's parameters, an hour-only offset refused, a request's operation and a path's methods", async () => {
  const [example] = await readmeTypeScriptBlocks(join(packageDir, "README.md"));
  // Inside the package, so that `@bot-conversation/openapi` resolves to itself through its own exports.
  const file = join(packageDir, "readme-example-run.ts");
  await writeFile(file, example!.source);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [file], { cwd: packageDir });
    expect(stderr).toBe("");
    expect(stdout).toBe(
      // The search's parameters as the bundle lists them: a parameter added to the description changes this line with no edit.
      `get /api/v2/channels/conversations ${searchParameterNames().join(" ")}\n` +
        "[ '/ must match format \"date-time\"' ]\n" +
        "listExternalEventTriggers { agentStageId: 'bot/1' } X-Token\n" +
        "[ 'GET', 'HEAD' ] undefined\n",
    );
  } finally {
    await rm(file, { force: true });
  }
});
