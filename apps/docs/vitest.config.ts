import { defineConfig } from "vitest/config";

/** Tests read the built site and drive a real Chromium; the JSON report feeds CI. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
