import { fileURLToPath } from "node:url";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expectPublishable } from "@bot-conversation/test-support/packed-package";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed description is clean for publint and holds the bundle, the workflows, the Decisions table and the LICENSE", async () => {
  const report = await expectPublishable(fileURLToPath(new URL("..", import.meta.url)), [], { types: false });
  expect(report.files.sort()).toEqual(["LICENSE", "README.md", "dist/openapi.json", "dist/openapi.yaml", "package.json", "workflows/bot-conversation.arazzo.yaml"]);
});
