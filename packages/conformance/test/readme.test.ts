import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { checkReadmeExamples } from "@bot-conversation/test-support/readme-examples";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

describe("README", () => {
  it("every ts example type-checks", async () => {
    const examples = await checkReadmeExamples(packageDir);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(example.diagnostics, `README line ${example.line}`).toEqual([]);
  });

  it("the in-process example runs and prints what its comment says", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const source = /^```ts\n([\s\S]*?)^```$/m.exec(readme)![1]!;
    const file = fileURLToPath(new URL("../readme-example-run.ts", import.meta.url));
    await writeFile(file, source);
    try {
      const { stdout } = await run(process.execPath, [file], { cwd: packageDir });
      expect(stdout).toContain("Result: every check that ran held");
      expect(stdout.trim().split("\n").at(-1)).toBe("true 1");
    } finally {
      await rm(file, { force: true });
    }
  });
});
