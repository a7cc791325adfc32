import { truncateText } from "@bot-conversation/client/text";
import { coverageText } from "../coverage.ts";
import type { ConformanceReport } from "../runner.ts";
import { rulesText } from "./rules.ts";
import { safeLogText } from "./safe-text.ts";

const seconds = (milliseconds: number): string => `${(milliseconds / 1000).toFixed(1)} s`;
const indent = (text: string, by: string): string =>
  text
    .split("\n")
    .map((line) => by + line)
    .join("\n");

/** Why a run stopped early, in one sentence. */
export const stopSentences = {
  interrupted: "Interrupted: this report covers what ran before the stop.",
  budget: "The request budget (--max-requests) ran out: this report covers what ran.",
  time: "The time limit (--max-time) was reached: this report covers what ran.",
  failures: "The failure limit (--max-failures) was reached: this report covers what ran.",
  "rate-limit": "The server's rate limit kept the run from finishing within its bounds (see the warnings): this report covers what ran.",
} as const;

/** The result line: new failures, or every check that ran held, with the counts. */
export function resultLine(report: ConformanceReport): string {
  const { passed, failed, notJudged, notRun } = report.counts;
  const counts = `${passed} passed, ${failed} failed, ${notJudged} not judged, ${notRun} not run`;
  if (report.newFailures > 0) return `Result: ${report.newFailures} new failures (${counts}).`;
  if (passed + failed === 0) return `Result: nothing was verified: no check reached a verdict (${counts}).`;
  return failed > 0 ? `Result: no new failure; every failure is known to the baseline (${counts}).` : `Result: every check that ran held (${counts}).`;
}

/** The report for a person: checks grouped by name, each failure with what was sent, received and broken, then findings, warnings, side effects and coverage. */
export function humanReport(report: ConformanceReport): string {
  const lines: string[] = [];
  lines.push(
    `Conformance of ${report.baseUrl}: seed ${report.seed}, ${report.requests} requests in ${seconds(report.durationMs)}${report.allowFire ? ", firing allowed" : ", read-only"}`,
  );
  if (report.stopped) lines.push(stopSentences[report.stopped]);
  lines.push("", "Checks");
  const width = Math.max(...report.checks.map((check) => check.name.length));
  for (const check of report.checks) {
    const mark = { failed: "✗", passed: "✓", "not judged": "?", "not run": "-" }[check.status];
    const judged = check.notJudged > 0 ? `, ${check.notJudged} not judged` : "";
    const counts =
      check.status === "not run"
        ? `not run: ${check.skipped ?? "nothing to check"}`
        : check.status === "not judged"
          ? `not judged (${check.notJudged}): ${check.notJudgedReasons.join("; ")}`
          : check.failed > 0
            ? `${check.failed} failed, ${check.passed} passed${judged}`
            : `${check.passed} passed${judged}`;
    const note = check.status !== "not run" && check.skipped ? ` (partly: ${check.skipped})` : "";
    lines.push(`  ${mark} ${check.name.padEnd(width)}  ${counts}${note}`);
  }
  lines.push("", ...rulesText(report.rules));
  const failing = report.checks.filter((check) => check.failed > 0);
  if (failing.length > 0) {
    lines.push("", "Failures");
    for (const check of failing) {
      lines.push("", `${check.name}: ${check.description}`, `  Rule: ${check.rule}`);
      check.failures.forEach((failure, index) => {
        lines.push(`  ${index + 1}. ${failure.operationId}: ${failure.message}${failure.known ? " (known: in the baseline)" : ""}`);
        for (const quote of failure.seed) lines.push(`     Seed (${quote.where}): "${quote.text}"`);
        lines.push(`     Sent: ${failure.sent}`);
        // Cut by characters, never inside a surrogate pair or an escape.
        lines.push(`     Received: ${truncateText(failure.received, 200)}`);
        if (failure.requests.length > 1)
          failure.requests.forEach((curl, step) => void lines.push(`     Reproduce (${step + 1}/${failure.requests.length}): ${curl}`));
        else lines.push(`     Reproduce: ${failure.curl}`);
      });
    }
  }
  if (report.sideEffects.length > 0) {
    lines.push("", `Side effects: the server accepted ${report.sideEffects.length} events (each ran a scenario)`);
    for (const effect of report.sideEffects) lines.push(`  ${effect.status} ${effect.request}`);
  }
  if (report.warnings.length > 0) {
    lines.push("", "Warnings");
    for (const warning of report.warnings) lines.push(`  ! ${warning}`);
  }
  if (report.relations.some((relation) => relation.transformed > 0)) {
    lines.push("", "Relations (requests transformed: held, failed, answered another way HTTP allows)");
    for (const relation of report.relations)
      lines.push(
        `  ${relation.name.padEnd(30)} ${relation.transformed} transformed: ${relation.held} held, ${relation.failed} failed, ${relation.differed} differed`,
      );
  }
  if (report.findings.length > 0) {
    lines.push("", "Findings on the open points (not failures; each can go into openapi/README.md's Decisions table)");
    for (const finding of report.findings) {
      const baseline = finding.accepted === undefined ? "" : finding.accepted ? " [accepted in the baseline]" : " [new or changed since the baseline]";
      lines.push(
        "",
        `  ${finding.name} (${finding.point})${baseline}`,
        indent(`Observed: ${finding.observed}`, "    "),
        indent(`The description decides: ${finding.decided}`, "    "),
      );
    }
  }
  lines.push("", "Coverage (operations × documented statuses × parameters; ✓n: n responses)", ...coverageText(report.coverage));
  lines.push("", resultLine(report));
  // The server's text (bodies, messages quoting values) is on these lines: shown safe for a terminal and a CI log.
  return safeLogText(lines.join("\n")) + "\n";
}
