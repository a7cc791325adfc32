import type { ConformanceReport } from "../runner.ts";
import { resultLine, stopSentences } from "./human.ts";
import { familyCell, rulesSummary } from "./rules.ts";
import { sanitizeLines } from "./safe-text.ts";

/** Text for the page: sanitized (controls and bidi controls as visible escapes), then HTML-escaped. */
const escapeHtml = (text: string): string =>
  sanitizeLines(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

const style = `
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;width:100%;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
.passed{color:#11631a}.failed{color:#a4161a;font-weight:600}.not-judged,.not-run{color:#6b5e00}
pre{background:#f4f4f4;padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.counts span{margin-right:1.5rem}section.failure{border-left:4px solid #a4161a;padding-left:1rem;margin:1rem 0}
section.known{border-left-color:#888}`;

/**
 * The report as one self-contained HTML page (`--html FILE`): no script, no outside resource. Every
 * request of every failure is a curl line (class `curl`) using `$BOT_CONVERSATION_TOKEN`, never the token.
 */
export function htmlReport(report: ConformanceReport): string {
  const { passed, failed, notJudged, notRun } = report.counts;
  const parts: string[] = [];
  parts.push(`<h1>Conformance of ${escapeHtml(report.baseUrl)}</h1>`);
  parts.push(
    `<p>Seed ${report.seed}, ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s, ${report.allowFire ? "firing allowed" : "read-only"}.${report.stopped ? ` ${escapeHtml(stopSentences[report.stopped])}` : ""}</p>`,
  );
  parts.push(
    `<p class="counts"><span class="passed">${passed} passed</span>, <span class="failed">${failed} failed</span>, <span class="not-judged">${notJudged} not judged</span>, <span class="not-run">${notRun} not run</span></p>`,
  );
  parts.push(`<p><strong>${escapeHtml(resultLine(report))}</strong></p>`);
  parts.push(`<p>Set <code>BOT_CONVERSATION_TOKEN</code> to your token, then run any curl line below in a shell to replay its request.</p>`);
  parts.push("<h2>Checks</h2><table><tr><th>Check</th><th>Result</th><th>Detail</th><th>Rule</th></tr>");
  for (const check of report.checks) {
    const detail =
      check.status === "not run"
        ? `not run: ${check.skipped ?? ""}`
        : check.status === "not judged"
          ? `not judged: ${check.notJudgedReasons.join("; ")}`
          : `${check.passed} passed, ${check.failed} failed, ${check.notJudged} not judged`;
    parts.push(
      `<tr><td><code>${check.name}</code></td><td class="${check.status.replace(" ", "-")}">${check.status}</td><td>${escapeHtml(detail)}</td><td>${escapeHtml(check.rule)}</td></tr>`,
    );
  }
  parts.push("</table>");
  parts.push(
    `<h2>Rules</h2><p>${escapeHtml(rulesSummary(report.rules))}.</p><table class="rules"><tr><th>Rule</th><th>Seed</th><th>Families run</th><th>Verdict</th></tr>`,
  );
  for (const rule of report.rules)
    parts.push(
      `<tr><td><code>${escapeHtml(rule.id)}</code><br>${escapeHtml(rule.text)}</td><td>${escapeHtml(rule.seed)}</td><td>${rule.families.length === 0 ? "no probe family" : rule.families.map((family) => `<span class="${family.status.replace(" ", "-")}">${escapeHtml(familyCell(family))}</span>`).join("<br>")}</td><td class="${rule.verdict.replace(" ", "-")}">${rule.verdict}</td></tr>`,
    );
  parts.push("</table>");
  const failing = report.checks.filter((check) => check.failures.length > 0);
  if (failing.length > 0) {
    parts.push("<h2>Failures</h2>");
    for (const check of failing) {
      for (const failure of check.failures) {
        parts.push(
          `<section class="failure${failure.known ? " known" : ""}"><h3><code>${check.name}</code> (${escapeHtml(failure.operationId)})${failure.known ? " known, in the baseline" : ""}</h3>`,
        );
        parts.push(
          `<p>${escapeHtml(failure.message)}</p><p><strong>Sent:</strong> ${escapeHtml(failure.sent)}<br><strong>Received:</strong> ${escapeHtml(failure.received)}<br><strong>Rule:</strong> ${escapeHtml(failure.rule)}${failure.seed.map((quote) => `<br><strong>Seed</strong> (${escapeHtml(quote.where)}): “${escapeHtml(quote.text)}”`).join("")}</p>`,
        );
        parts.push(
          `<p>Requests (${failure.requests.length}):</p>${failure.requests.map((curl) => `<pre class="curl">${escapeHtml(curl)}</pre>`).join("")}</section>`,
        );
      }
    }
  }
  if (report.sideEffects.length > 0) {
    parts.push(
      `<h2>Side effects: ${report.sideEffects.length} events the server accepted</h2><ul>${report.sideEffects.map((effect) => `<li>${effect.status} <code>${escapeHtml(effect.request)}</code></li>`).join("")}</ul>`,
    );
  }
  if (report.warnings.length > 0) parts.push(`<h2>Warnings</h2><ul>${report.warnings.map((warning) => `<li>${escapeHtml(warning)}</li>`).join("")}</ul>`);
  if (report.findings.length > 0) {
    parts.push("<h2>Findings on the open points</h2><table><tr><th>Finding</th><th>Observed</th><th>The description decides</th></tr>");
    for (const finding of report.findings)
      parts.push(
        `<tr><td><code>${escapeHtml(finding.name)}</code><br>${escapeHtml(finding.point)}</td><td>${escapeHtml(finding.observed)}</td><td>${escapeHtml(finding.decided)}</td></tr>`,
      );
    parts.push("</table>");
  }
  parts.push("<h2>Coverage</h2><table><tr><th>Operation</th><th>Statuses (responses)</th><th>Parameters (sent / with data)</th></tr>");
  for (const operation of report.coverage) {
    const statuses = operation.statuses.map((entry) => `${entry.status}${entry.documented ? "" : " (undocumented)"}: ${entry.responses}`).join("<br>");
    const parameters = operation.parameters.map((parameter) => `${parameter.name}: ${parameter.requests} / ${parameter.withData}`).join("<br>");
    parts.push(
      `<tr><td><code>${escapeHtml(operation.operationId)}</code><br>${escapeHtml(operation.route)}</td><td>${escapeHtml(statuses).replaceAll("&lt;br&gt;", "<br>")}</td><td>${escapeHtml(parameters).replaceAll("&lt;br&gt;", "<br>")}</td></tr>`,
    );
  }
  parts.push("</table>");
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Conformance of ${escapeHtml(report.baseUrl)}</title><style>${style}</style></head><body>\n${parts.join("\n")}\n</body></html>\n`;
}
