import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    // The Redocly CLI checks spawn a process each; give them room on a 2-core machine.
    testTimeout: 60_000,
  },
});
