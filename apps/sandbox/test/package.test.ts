import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";
import { lintPackage } from "@bot-conversation/test-support/lint-package";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });
const packageDir = fileURLToPath(new URL("..", import.meta.url));

test("the packed package is clean for publint and Are the Types Wrong (ESM only), with built JavaScript, declarations and the LICENSE", async () => {
  const report = await lintPackage(packageDir);
  expect(report.files).toEqual(expect.arrayContaining(["LICENSE", "dist/index.js", "dist/index.d.ts", "dist/index.js.map"]));
  expect(report.publint).toEqual([]);
  expect(report.attw).toEqual([]);
  expect(await readFile(new URL("../LICENSE", import.meta.url), "utf8")).toBe(await readFile(new URL("../../../LICENSE", import.meta.url), "utf8"));
});
