import type { ConformanceReport } from "../runner.ts";

/** The report as JSON for scripts and CI (`--json FILE`); the token never appears in it. */
export function jsonReport(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
