import { fileURLToPath } from "node:url";
import { checkReadmeExamples } from "@bot-conversation/test-support/readme-examples";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("every ts example of README.md compiles against the built package", async () => {
  const examples = await checkReadmeExamples(fileURLToPath(new URL("..", import.meta.url)));
  expect(examples.length).toBeGreaterThan(0);
  expect(examples.filter((example) => example.diagnostics.length > 0)).toEqual([]);
});
