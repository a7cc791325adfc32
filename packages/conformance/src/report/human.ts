import type { ConformanceReport } from "../runner.ts";

const seconds = (milliseconds: number): string => `${(milliseconds / 1000).toFixed(1)} s`;
const indent = (text: string, by: string): string => text.split("\n").map((line) => by + line).join("\n");

/** The report for a person: checks grouped by name, each failure with a curl reproduction, then the findings. */
export function humanReport(report: ConformanceReport): string {
  const lines: string[] = [];
  lines.push(`Conformance of ${report.baseUrl}: seed ${report.seed}, ${report.requests} requests in ${seconds(report.durationMs)}${report.allowFire ? ", firing allowed" : ", read-only"}`);
  if (report.stopped === "interrupted") lines.push("Interrupted: this report covers what ran before the stop.");
  if (report.stopped === "budget") lines.push("The request budget (--max-requests) ran out: this report covers what ran.");
  lines.push("", "Checks");
  const width = Math.max(...report.checks.map((check) => check.name.length));
  for (const check of report.checks) {
    const ran = check.passed + check.failed > 0;
    const mark = check.failed > 0 ? "✗" : ran ? "✓" : "-";
    const counts = !ran ? `not run: ${check.skipped ?? "nothing to check"}` : check.failed > 0 ? `${check.failed} failed, ${check.passed} passed` : `${check.passed} passed`;
    const note = ran && check.skipped ? ` (partly: ${check.skipped})` : "";
    lines.push(`  ${mark} ${check.name.padEnd(width)}  ${counts}${note}`);
  }
  const failing = report.checks.filter((check) => check.failed > 0);
  if (failing.length > 0) {
    lines.push("", "Failures");
    for (const check of failing) {
      lines.push("", `${check.name}: ${check.description}`);
      check.failures.forEach((failure, index) => {
        lines.push(`  ${index + 1}. ${failure.operationId}: ${failure.message}`);
        lines.push(`     Reproduce: ${failure.curl}`);
        if (failure.responseExcerpt) lines.push(`     Response ${failure.status}: ${failure.responseExcerpt.replaceAll("\n", " ").slice(0, 200)}`);
      });
    }
  }
  if (report.findings.length > 0) {
    lines.push("", "Findings on the open points (not failures; each can go into openapi/README.md's Decisions table)");
    for (const finding of report.findings) {
      lines.push("", `  ${finding.name} (${finding.point})`, indent(`Observed: ${finding.observed}`, "    "), indent(`The description decides: ${finding.decided}`, "    "));
    }
  }
  const ran = report.checks.filter((check) => check.passed + check.failed > 0).length;
  lines.push(
    "",
    failing.length > 0
      ? `Result: ${failing.length} of ${ran} checks failed.`
      : `Result: all ${ran} checks that ran held${ran < report.checks.length ? `; ${report.checks.length - ran} not run` : ""}.`,
  );
  return lines.join("\n") + "\n";
}
