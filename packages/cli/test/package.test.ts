import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { lintPackage } from "@bot-conversation/test-support/lint-package";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed package holds the built command, the description and its LICENSE, and is clean for publint and Are the Types Wrong (ESM only)", async () => {
  const report = await lintPackage(fileURLToPath(new URL("..", import.meta.url)));
  expect(report.files).toEqual(expect.arrayContaining(["dist/bin.js", "dist/bin.js.map", "dist/index.d.ts", "description/openapi.json", "LICENSE", "README.md"]));
  expect(report.files.filter((file) => file.startsWith("test/"))).toEqual([]);
  expect(report.publint).toEqual([]);
  expect(report.attw).toEqual([]);
  expect(await readFile(new URL("../LICENSE", import.meta.url), "utf8")).toBe(await readFile(new URL("../../../LICENSE", import.meta.url), "utf8"));
});
