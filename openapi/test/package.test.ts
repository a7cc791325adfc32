import { fileURLToPath } from "node:url";
import { expectPublishable } from "@bot-conversation/test-support/packed-package";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { expect, test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed description is clean for publint and Are the Types Wrong, and holds the bundle, the workflows, the runtime (ESM and declarations) and the LICENSE", async () => {
  const report = await expectPublishable(fileURLToPath(new URL("..", import.meta.url)), []);
  const runtime = ["ajv", "compiled-description", "date-time", "description", "index", "path-template"].flatMap((name) => [
    `dist/${name}.js`,
    `dist/${name}.d.ts`,
  ]);
  expect(report.files).toEqual(
    expect.arrayContaining([
      "LICENSE",
      "README.md",
      "dist/openapi.json",
      "dist/openapi.yaml",
      "package.json",
      "workflows/bot-conversation.arazzo.yaml",
      ...runtime,
    ]),
  );
  // Nothing of the tests, the scripts or the split sources is published.
  expect(report.files.filter((file) => /^(test|scripts|paths|components|baseline)\//.test(file))).toEqual([]);
});
