import type { ConformanceReport } from "../runner.ts";
import { resultLine } from "./human.ts";
import { failureBody } from "./junit.ts";
import { safeLogText, sanitizeLines } from "./safe-text.ts";

/** Escapes a workflow command's message (GitHub's rules: %, CR and LF), each line made safe first (`safeLogText`): nothing of the server's ends the command, starts another or acts on the log. */
const escapeData = (text: string): string => safeLogText(text).replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
/** Escapes a workflow command's property value (also `:` and `,`). */
const escapeProperty = (text: string): string => escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");

/** GitHub Actions annotations: `::error` for each new failure, `::notice` for known ones, `::warning` for each warning. */
export function githubAnnotations(report: ConformanceReport): string {
  const lines: string[] = [];
  for (const check of report.checks) {
    for (const failure of check.failures) {
      const level = failure.known ? "notice" : "error";
      lines.push(
        `::${level} title=${escapeProperty(`${check.name} (${failure.operationId})${failure.known ? " known" : ""}`)}::${escapeData(`${failure.message}\n${failureBody(failure)}`)}`,
      );
    }
  }
  for (const warning of report.warnings) lines.push(`::warning title=${escapeProperty("conformance warning")}::${escapeData(warning)}`);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The Markdown job summary (`$GITHUB_STEP_SUMMARY`): result, checks, failures with curl, side effects, warnings, findings. */
export function githubSummary(report: ConformanceReport): string {
  const lines = [
    `## Conformance of ${report.baseUrl}`,
    "",
    `${resultLine(report)} Seed ${report.seed}, ${report.requests} requests${report.stopped ? `, stopped early (${report.stopped})` : ""}.`,
    "",
  ];
  lines.push("| Check | Result | Detail |", "|---|---|---|");
  for (const check of report.checks) {
    const detail =
      check.status === "not run"
        ? (check.skipped ?? "")
        : check.status === "not judged"
          ? check.notJudgedReasons.join("; ")
          : `${check.passed} passed, ${check.failed} failed, ${check.notJudged} not judged`;
    lines.push(`| \`${check.name}\` | ${check.status} | ${cell(detail)} |`);
  }
  const failures = report.checks.flatMap((check) => check.failures.map((failure) => ({ check, failure })));
  if (failures.length > 0) {
    lines.push("", "### Failures");
    for (const { check, failure } of failures) {
      lines.push(
        "",
        `**${check.name}** (${failure.operationId})${failure.known ? " (known, in the baseline)" : ""}: ${failure.message}`,
        "",
        "```",
        failureBody(failure),
        "```",
      );
    }
  }
  if (report.sideEffects.length > 0)
    lines.push(
      "",
      `### Side effects: ${report.sideEffects.length} events accepted`,
      "",
      ...report.sideEffects.map((effect) => `- ${effect.status} \`${effect.request}\``),
    );
  if (report.warnings.length > 0) lines.push("", "### Warnings", "", ...report.warnings.map((warning) => `- ${warning}`));
  if (report.findings.length > 0)
    lines.push("", "### Findings on the open points", "", ...report.findings.map((finding) => `- **${finding.name}**: ${finding.observed}`));
  return `${sanitizeLines(lines.join("\n"))}\n`;
}
