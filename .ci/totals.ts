/**
 * Sums the vitest JSON reports of every workspace package that has a `test` script, and the CI steps
 * that are not vitest runs (`test-results/ci-steps.json`, written by `.ci/run`: one test each), and
 * prints the run's totals as one line, `N passed, N failed`. A package without a report counts as one
 * failed test (it crashed or never ran), and a skipped or todo test counts as failed: CI skips nothing.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const root = new URL("..", import.meta.url).pathname;
const packageDirectories = [
  "openapi",
  ...["packages", "apps", "examples"]
    .filter((group) => existsSync(join(root, group)))
    .flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name))),
];

let passed = 0;
let failed = 0;
for (const directory of packageDirectories) {
  const manifestPath = join(root, directory, "package.json");
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { name: string; scripts?: Record<string, string> };
  if (!manifest.scripts?.["test"]) continue;
  const reportPath = join(root, directory, "test-results", "vitest.json");
  if (!existsSync(reportPath)) {
    console.error(`${manifest.name}: no test report at ${reportPath}; counted as 1 failed`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as VitestReport;
  const skipped = report.numPendingTests + report.numTodoTests;
  if (skipped > 0) console.error(`${manifest.name}: ${skipped} skipped or todo test(s), counted as failed`);
  console.error(`${manifest.name}: ${report.numPassedTests} passed, ${report.numFailedTests + skipped} failed`);
  passed += report.numPassedTests;
  failed += report.numFailedTests + skipped;
}
const stepsPath = join(root, "test-results", "ci-steps.json");
const steps = existsSync(stepsPath) ? (JSON.parse(readFileSync(stepsPath, "utf8")) as Record<string, boolean>) : {};
for (const [step, ok] of Object.entries(steps)) {
  console.error(`ci step ${step}: ${ok ? "passed" : "failed"}`);
  if (ok) passed += 1;
  else failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
