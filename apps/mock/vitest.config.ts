import { defineConfig } from "vitest/config";

/** Tests run against the real Prism process; the JSON report feeds CI. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
