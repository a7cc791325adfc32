import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { checkReadmeExamples } from "@bot-conversation/test-support/readme-examples";

test("every ts example of README.md compiles against the built package", async () => {
  const examples = await checkReadmeExamples(fileURLToPath(new URL("..", import.meta.url)));
  expect(examples.length).toBeGreaterThan(0);
  expect(examples.filter((example) => example.diagnostics.length > 0)).toEqual([]);
});
