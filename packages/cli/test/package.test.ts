import { fileURLToPath } from "node:url";
import { expectPublishable } from "@bot-conversation/test-support/packed-package";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed package holds the built command and its LICENSE (the description comes with its dependency `@bot-conversation/openapi`), and is clean for publint and Are the Types Wrong (ESM only)", async () => {
  const report = await expectPublishable(fileURLToPath(new URL("..", import.meta.url)), ["dist/bin.js", "dist/bin.js.map", "dist/index.d.ts", "README.md"]);
  expect(report.files.filter((file) => file.startsWith("test/"))).toEqual([]);
});
