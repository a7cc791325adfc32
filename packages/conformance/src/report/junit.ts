import junitModule, { type Builder } from "junit-report-builder";
import type { Failure } from "../results.ts";
import type { ConformanceReport } from "../runner.ts";
import { sanitizeLines } from "./safe-text.ts";

// The package is CommonJS whose module.exports is the builder; its types describe the ES build's
// default export instead, so under NodeNext the default import is typed one level too deep.
const junit = junitModule as unknown as Builder;

/** The body of a failure: what was sent and received, the rule, and every request as curl. */
export function failureBody(failure: Failure): string {
  return sanitizeLines(
    [
      `Sent: ${failure.sent}`,
      `Received: ${failure.received}`,
      `Rule: ${failure.rule}`,
      ...failure.seed.map((quote) => `Seed (${quote.where}): "${quote.text}"`),
      "Reproduce:",
      ...failure.requests.map((curl) => `  ${curl}`),
    ].join("\n"),
  );
}

/**
 * The report as JUnit XML for CI (`--junit FILE`): one test case per check, and one per failure of a
 * failing check (message and body each); a check that could not judge or never ran is skipped with
 * its reason; a known failure (baseline) passes with a note; each finding is a passing test case.
 */
export function junitReport(report: ConformanceReport): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(`bot-conversation conformance of ${report.baseUrl}`)
    .time(report.durationMs / 1000)
    .property("seed", String(report.seed));
  if (report.stopped) suite.property("stopped", report.stopped);
  for (const check of report.checks) {
    if (check.failed > 0) {
      check.failures.forEach((failure, index) => {
        const testCase = suite
          .testCase()
          .className(`conformance.${check.name}`)
          .name(`${check.name} #${index + 1} (${failure.operationId})`);
        if (failure.known) testCase.standardOutput(`known failure (in the baseline): ${sanitizeLines(failure.message)}\n${failureBody(failure)}`);
        else testCase.failure(sanitizeLines(failure.message), check.name).stacktrace(failureBody(failure));
      });
      continue;
    }
    const testCase = suite.testCase().className(`conformance.${check.name}`).name(check.name);
    if (check.status === "not run") testCase.skipped().standardOutput(`not run: ${check.skipped ?? "nothing to check"}`);
    else if (check.status === "not judged") testCase.skipped().standardOutput(sanitizeLines(`not judged: ${check.notJudgedReasons.join("; ")}`));
    else
      testCase.standardOutput(`${check.passed} passed${check.notJudged > 0 ? `, ${check.notJudged} not judged (${check.notJudgedReasons.join("; ")})` : ""}`);
  }
  for (const finding of report.findings) {
    suite
      .testCase()
      .className("findings")
      .name(finding.name)
      .standardOutput(sanitizeLines(`${finding.point}\nObserved: ${finding.observed}\nThe description decides: ${finding.decided}`));
  }
  for (const warning of report.warnings) suite.property("warning", sanitizeLines(warning));
  return builder.build();
}
