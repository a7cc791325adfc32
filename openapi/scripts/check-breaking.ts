/**
 * Breaking-change guard: compares the bundled description with the committed baseline of the last
 * released one, and fails when a change that can break a client (a major change, as rated by
 * `redocly diff`) lands without a major bump of `info.version`.
 *
 * Usage: node scripts/check-breaking.ts [baseline] [revision]
 */
import { fileURLToPath } from "node:url";
import { redocly } from "./redocly.ts";

/** What `redocly diff --format json` reports, in the parts this guard reads. */
interface DiffReport {
  infoVersions: { base: string; revision: string };
  summary: { major: number; minor: number; patch: number };
  changes: { impact: string; verdicts: { impact: string; message: string }[] }[];
}

/** The guard's verdict on one pair of descriptions. */
export interface BreakingChangeVerdict {
  ok: boolean;
  summary: DiffReport["summary"];
  baseVersion: string;
  revisionVersion: string;
  majorChanges: string[];
  reason: string;
}

/** Default baseline: the released description, committed. */
export const defaultBaseline = fileURLToPath(new URL("../baseline/openapi.yaml", import.meta.url));
/** Default revision: the bundle the build produces. */
export const defaultRevision = fileURLToPath(new URL("../dist/openapi.yaml", import.meta.url));

/**
 * Changes `redocly diff` rates major that break no client, reviewed by hand, each with why. The
 * guard skips exactly these messages; anything else major still needs a major bump.
 */
export const reviewedNotBreaking: Record<string, string> = {
  "`anyOf` of `ExternalEventVariableValue` was added.":
    "The type list [string, number, boolean, object] became an anyOf of the same four types: the same values are accepted (issue 11).",
  "Server `{base_url}` was removed.": "It moved to second place behind the concrete local-mock server, with the same URL and default (issue 11).",
  "`format` of `latestMessageOn` was removed.":
    "The service states an offset only for `startedOn`: `latestMessageOn` is an ISO 8601 date-time whose offset the service never promised, so no answer a client could rely on changes; the description stops claiming more than the service (issue 31).",
};

function majorOf(version: string): number {
  const match = /^(\d+)\.\d+\.\d+/.exec(version);
  if (!match) throw new Error(`info.version must be semantic (MAJOR.MINOR.PATCH), got "${version}"`);
  return Number(match[1]);
}

/** Runs `redocly diff` on the two descriptions and applies the major-bump rule. */
export function checkBreakingChanges(baseline = defaultBaseline, revision = defaultRevision): BreakingChangeVerdict {
  const diff = redocly("diff", baseline, revision, "--format", "json", "--fail-on", "none");
  if (diff.status !== 0) throw new Error(`redocly diff failed (exit ${diff.status}): ${diff.stderr}`);
  const report = JSON.parse(diff.stdout) as DiffReport;
  const { base: baseVersion, revision: revisionVersion } = report.infoVersions;
  const majorChanges = report.changes
    .filter((change) => change.impact === "major")
    .flatMap((change) => change.verdicts.filter((verdict) => verdict.impact === "major").map((verdict) => verdict.message))
    .filter((message) => !(message in reviewedNotBreaking));
  const bumpedMajor = majorOf(revisionVersion) > majorOf(baseVersion);
  const ok = majorChanges.length === 0 || bumpedMajor;
  const reason = ok
    ? `${report.summary.major} major, ${report.summary.minor} minor, ${report.summary.patch} patch changes since ${baseVersion}`
    : `${majorChanges.length} breaking change(s) since ${baseVersion} need a major bump of info.version (now ${revisionVersion})`;
  return { ok, summary: report.summary, baseVersion, revisionVersion, majorChanges, reason };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const verdict = checkBreakingChanges(process.argv[2], process.argv[3]);
  console.log(verdict.reason);
  for (const change of verdict.majorChanges) console.log(`  - ${change}`);
  process.exitCode = verdict.ok ? 0 : 1;
}
