import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";
import { lintPackage } from "@bot-conversation/test-support/lint-package";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed description is clean for publint and holds the bundle, the workflows, the Decisions table and the LICENSE", async () => {
  const report = await lintPackage(fileURLToPath(new URL("..", import.meta.url)), { types: false });
  expect(report.files.sort()).toEqual(["LICENSE", "README.md", "dist/openapi.json", "dist/openapi.yaml", "package.json", "workflows/bot-conversation.arazzo.yaml"]);
  expect(report.publint).toEqual([]);
  expect(await readFile(new URL("../LICENSE", import.meta.url), "utf8")).toBe(await readFile(new URL("../../LICENSE", import.meta.url), "utf8"));
});
