/**
 * Sums the vitest JSON reports of every workspace package that has a `test` script, and the CI steps
 * that are not vitest runs (`test-results/ci-steps.json`, written as `.ci/run` runs ci.yml's steps: one test each), and
 * prints the run's totals as one line, `N passed, N failed`, followed by the packages counted failed
 * as a whole and why. A package counts as one failed test when it left no report (it crashed or never
 * ran), when its report holds no test file, or when its run reported failure with no failed test
 * (an error outside the tests: a crashed global set-up or tear-down); a test file that failed to load
 * counts as one failed test; a skipped or todo test counts as failed: CI skips nothing.
 *
 * The workspace is this file's parent folder, or the folder given as the first argument.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The fields of vitest's JSON report that the totals read. */
interface VitestReport {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: { name: string; status: string; message?: string; assertionResults: unknown[] }[];
}

const root = process.argv[2] ? resolve(process.argv[2]) : new URL("..", import.meta.url).pathname;
const packageDirectories = [
  "openapi",
  ...["packages", "apps", "examples"]
    .filter((group) => existsSync(join(root, group)))
    .flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name))),
];

let passed = 0;
let failed = 0;
/** Each package counted failed as a whole (not by a test's result), with why. */
const wholeFailures: string[] = [];
for (const directory of packageDirectories) {
  const manifestPath = join(root, directory, "package.json");
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { name: string; scripts?: Record<string, string> };
  if (!manifest.scripts?.["test"]) continue;
  const reportPath = join(root, directory, "test-results", "vitest.json");
  if (!existsSync(reportPath)) {
    wholeFailures.push(`${manifest.name} (no test report: its run crashed or never ran)`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, "utf8")) as VitestReport;
  const skipped = report.numPendingTests + report.numTodoTests;
  // A file that never ran its tests (an import error, a crash while loading) holds no test results.
  const unloadedFiles = report.testResults.filter((file) => file.status === "failed" && file.assertionResults.length === 0);
  let packageFailed = report.numFailedTests + skipped + unloadedFiles.length;
  if (skipped > 0) console.error(`${manifest.name}: ${skipped} skipped or todo test(s), counted as failed`);
  for (const file of unloadedFiles) console.error(`${manifest.name}: ${file.name} ran no test (${(file.message ?? "").split("\n")[0]}), counted as 1 failed`);
  if (report.testResults.length === 0) {
    wholeFailures.push(`${manifest.name} (ran no test file${report.success ? "" : "; its run reported failure"})`);
    packageFailed += 1;
  } else if (!report.success && packageFailed === 0) {
    wholeFailures.push(`${manifest.name} (its run reported failure with no failed test: an error outside the tests, such as its global set-up)`);
    packageFailed += 1;
  }
  console.error(`${manifest.name}: ${report.numPassedTests} passed, ${packageFailed} failed`);
  passed += report.numPassedTests;
  failed += packageFailed;
}
const stepsPath = join(root, "test-results", "ci-steps.json");
const steps = existsSync(stepsPath) ? (JSON.parse(readFileSync(stepsPath, "utf8")) as Record<string, boolean>) : {};
for (const [step, ok] of Object.entries(steps)) {
  console.error(`ci step ${step}: ${ok ? "passed" : "failed"}`);
  if (ok) passed += 1;
  else failed += 1;
}
const whole = wholeFailures.length > 0 ? `; counted failed as a whole: ${wholeFailures.join(", ")}` : "";
console.log(`${passed} passed, ${failed} failed${whole}`);
process.exitCode = failed > 0 ? 1 : 0;
