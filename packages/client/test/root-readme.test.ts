import { fileURLToPath } from "node:url";
import { checkReadmeExamples } from "@bot-conversation/test-support/readme-examples";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the ts example of the repository README compiles against the built client", async () => {
  const packageDir = fileURLToPath(new URL("..", import.meta.url));
  const examples = await checkReadmeExamples(packageDir, {}, fileURLToPath(new URL("../../../README.md", import.meta.url)));
  expect(examples.length).toBeGreaterThanOrEqual(1);
  expect(examples.filter((example) => example.diagnostics.length > 0)).toEqual([]);
});
