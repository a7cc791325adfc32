import { fileURLToPath } from "node:url";
import { lintPackage } from "@bot-conversation/test-support/lint-package";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed package is clean for publint and Are the Types Wrong (ESM only)", async () => {
  const report = await lintPackage(fileURLToPath(new URL("..", import.meta.url)));
  expect(report.files).toContain("dist/index.d.ts");
  expect(report.publint).toEqual([]);
  expect(report.attw).toEqual([]);
});
