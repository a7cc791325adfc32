import junitModule, { type Builder } from "junit-report-builder";
import type { ConformanceReport } from "../runner.ts";

// The package is CommonJS whose module.exports is the builder; its types describe the ES build's
// default export instead, so under NodeNext the default import is typed one level too deep.
const junit = junitModule as unknown as Builder;

/** The report as JUnit XML for CI (`--junit FILE`): one test case per check, failures with their reproductions. */
export function junitReport(report: ConformanceReport): string {
  const builder = junit.newBuilder();
  const suite = builder.testSuite().name(`bot-conversation conformance of ${report.baseUrl}`).time(report.durationMs / 1000).property("seed", String(report.seed));
  for (const check of report.checks) {
    const testCase = suite.testCase().className("conformance").name(check.name);
    if (check.failed > 0) {
      const detail = check.failures.map((failure) => `${failure.operationId}: ${failure.message}\n  ${failure.curl}`).join("\n");
      testCase.failure(`${check.failed} failed, ${check.passed} passed: ${check.failures[0]?.message ?? ""}`).standardOutput(detail);
    } else if (check.passed === 0) {
      testCase.skipped().standardOutput(check.skipped ?? "nothing to check");
    }
  }
  for (const finding of report.findings) {
    suite.property(`finding.${finding.name}`, finding.observed);
  }
  return builder.build();
}
