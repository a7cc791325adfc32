import { defineConfig, type ViteUserConfig } from "vitest/config";

/** What a package may set on top of the workspace's test settings. */
export type PackageTestSettings = NonNullable<ViteUserConfig["test"]>;

/**
 * The workspace's vitest configuration: tests under `test/`, and the JSON report at
 * `test-results/vitest.json` that CI sums into the run's totals (`.ci/totals.ts`).
 */
export function workspaceTestConfig(settings: PackageTestSettings = {}): ViteUserConfig {
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      reporters: ["default", "json"],
      outputFile: { json: "test-results/vitest.json" },
      ...settings,
    },
  });
}
