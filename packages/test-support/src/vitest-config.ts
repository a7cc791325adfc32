import { defineConfig, type ViteUserConfig } from "vitest/config";
import { hangGuardMs } from "./timeouts.ts";

/** What a package may set on top of the workspace's test settings. */
export type PackageTestSettings = NonNullable<ViteUserConfig["test"]>;

/**
 * The workspace's vitest configuration: tests under `test/`, the JSON report at
 * `test-results/vitest.json` that CI sums into the run's totals (`.ci/totals.ts`), and time-outs
 * that guard against a hang on a busy machine (vitest's own 5 s and 10 s, scaled by
 * `busyMachineFactor`), unless the package sets its own. Test files share their worker's module cache
 * (`isolate: false`): a worker no longer starts and imports the package afresh for every file, which was
 * about a fifth of the CPU of the sandbox's tests; a file leaves the process as it found it (its servers
 * closed, MSW stopped, real timers back).
 */
export function workspaceTestConfig(settings: PackageTestSettings = {}): ViteUserConfig {
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      reporters: ["default", "json"],
      outputFile: { json: "test-results/vitest.json" },
      testTimeout: hangGuardMs(5_000),
      hookTimeout: hangGuardMs(10_000),
      isolate: false,
      ...settings,
    },
  });
}
