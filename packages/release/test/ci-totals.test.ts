/**
 * `.ci/totals.ts` cannot hide a suite: throwaway vitest projects, run for real with the workspace's
 * vitest, one whose global set-up kills its own process (no report), one whose global set-up throws
 * (vitest reports failure and no test file, as when the client's Prism exited from a signal), one
 * whose only file fails to load, and a healthy one; their reports go through the totals as CI reads them.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceRoot } from "../src/major-guard.ts";

const run = promisify(execFile);
const vitest = join(workspaceRoot, "packages", "release", "node_modules", ".bin", "vitest");
let clone: string;

/** The set-up each throwaway package's vitest runs before its tests. */
const setups = {
  healthy: "export default function () {}",
  killed: 'export default function () { process.kill(process.pid, "SIGKILL"); }',
  crashed: 'export default function () { throw new Error("Prism exited from signal SIGKILL"); }',
  unloadable: "export default function () {}",
};

beforeAll(async () => {
  clone = mkdtempSync(join(tmpdir(), "ci-totals-"));
  for (const [name, setup] of Object.entries(setups)) {
    const directory = join(clone, "packages", name);
    mkdirSync(join(directory, "test"), { recursive: true });
    writeFileSync(join(directory, "package.json"), JSON.stringify({ name: `@throwaway/${name}`, scripts: { test: "vitest run" } }));
    writeFileSync(join(directory, "setup.mjs"), setup);
    // The workspace's report settings (test-support's workspaceTestConfig), with globals: no import of vitest from /tmp.
    writeFileSync(
      join(directory, "vitest.config.mjs"),
      `export default { test: { include: ["test/**/*.test.ts"], globals: true, globalSetup: ["setup.mjs"], reporters: ["default", "json"], outputFile: { json: "test-results/vitest.json" } } };`,
    );
    writeFileSync(
      join(directory, "test", "one.test.ts"),
      name === "unloadable"
        ? 'import "./missing-module.ts";\nit("never runs", () => {});'
        : 'it("holds", () => expect(1 + 1).toBe(2));\nit("holds too", () => expect([1]).toHaveLength(1));',
    );
    // The real vitest, as the package's `test` script runs it; its exit status is the totals' business.
    await run(vitest, ["run"], { cwd: directory }).catch(() => undefined);
  }
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe(".ci/totals.ts", () => {
  it("counts a crashed set-up, a run with no test file and a file that never loaded as failed, and names each package and why", async () => {
    const totals = await run(process.execPath, [join(workspaceRoot, ".ci", "totals.ts"), clone]).then(
      () => {
        throw new Error("totals exited 0 with failed packages");
      },
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(totals.code).toBe(1);
    const line = totals.stdout.trim();
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toMatch(/^2 passed, 3 failed; counted failed as a whole: /);
    expect(line).toContain("@throwaway/killed (no test report: its run crashed or never ran)");
    expect(line).toContain("@throwaway/crashed (ran no test file; its run reported failure)");
    expect(line).not.toContain("@throwaway/healthy");
    expect(totals.stderr).toContain("@throwaway/healthy: 2 passed, 0 failed");
    expect(totals.stderr).toMatch(/@throwaway\/unloadable: .*one\.test\.ts ran no test \(.*missing-module/);
  });

  it("passes a workspace whose every package ran its tests", async () => {
    for (const name of ["killed", "crashed", "unloadable"]) rmSync(join(clone, "packages", name), { recursive: true });
    const totals = await run(process.execPath, [join(workspaceRoot, ".ci", "totals.ts"), clone]);
    expect(totals.stdout.trim()).toBe("2 passed, 0 failed");
  });
});
