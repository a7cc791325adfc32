import { fileURLToPath } from "node:url";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { hangGuardMs } from "./timeouts.ts";

/** What every package's run first builds and type-checks when turbo did not start it (`build-dependencies.ts`). */
const buildDependencies = fileURLToPath(new URL("./build-dependencies.ts", import.meta.url));

/**
 * Node's compile cache for every process a test run starts (vitest's workers, and the sandboxes, CLIs, Prism
 * and compilers the tests start with the run's environment): V8's code for each module is kept on disk and
 * read back instead of compiled again. The sandbox's tests start it as a process about 150 times; with the
 * cache they took 205 s of CPU instead of 270 s. Kept under the workspace's `node_modules/.cache`, keyed
 * by each file's content and Node's version; a variable already set (`NODE_COMPILE_CACHE`) is kept.
 */
const compileCacheDirectory = fileURLToPath(new URL("../../../node_modules/.cache/node-compile-cache", import.meta.url));

/** What a package may set on top of the workspace's test settings. */
export type PackageTestSettings = NonNullable<ViteUserConfig["test"]>;

/**
 * The workspace's vitest configuration: tests under `test/`, the JSON report at
 * `test-results/vitest.json` that CI sums into the run's totals (`.ci/totals.ts`), and time-outs
 * that guard against a hang on a busy machine (vitest's own 5 s and 10 s, scaled by
 * `busyMachineFactor`), unless the package sets its own. Run outside turbo, it first builds and type-checks what
 * the package's tests depend on (`build-dependencies.ts`). Test files share their worker's module cache
 * (`isolate: false`): a worker no longer starts and imports the package afresh for every file, which was
 * about a fifth of the CPU of the sandbox's tests; a file leaves the process as it found it (its servers
 * closed, MSW stopped, real timers back). One thing no file undoes: a sandbox served in process replaces the
 * global `Request` and `Response` with Hono's (its Node adapter's default, as in any process serving Hono on
 * Node); the client reads and bounds those as any other (`limitResponse`).
 */
export function workspaceTestConfig(settings: PackageTestSettings = {}): ViteUserConfig {
  // Read by Node as each process starts: set here, before vitest starts its workers, every process inherits it.
  process.env["NODE_COMPILE_CACHE"] ??= compileCacheDirectory;
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      reporters: ["default", "json"],
      outputFile: { json: "test-results/vitest.json" },
      testTimeout: hangGuardMs(5_000),
      hookTimeout: hangGuardMs(10_000),
      isolate: false,
      ...settings,
      globalSetup: [buildDependencies, ...[settings.globalSetup ?? []].flat()],
    },
  });
}
