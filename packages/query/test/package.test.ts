import { fileURLToPath } from "node:url";
import { expectPublishable } from "@bot-conversation/test-support/packed-package";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed package holds the built ESM, declarations and maps, and its LICENSE, and is clean for publint and Are the Types Wrong", async () => {
  const report = await expectPublishable(fileURLToPath(new URL("..", import.meta.url)), [
    "dist/index.js",
    "dist/index.js.map",
    "dist/index.d.ts",
    "dist/index.d.ts.map",
    "README.md",
  ]);
  expect(report.files.filter((file) => file.startsWith("test/"))).toEqual([]);
});
