import { fileURLToPath } from "node:url";
import { expectPublishable } from "@bot-conversation/test-support/packed-package";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { test, vi } from "vitest";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

test("the packed package is clean for publint and Are the Types Wrong (ESM only), with built JavaScript, declarations and the LICENSE", async () => {
  await expectPublishable(fileURLToPath(new URL("..", import.meta.url)), ["dist/index.js", "dist/index.d.ts", "dist/index.js.map"]);
});
