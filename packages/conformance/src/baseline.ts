import type { CheckName } from "./checks/index.ts";
import { isCheckName } from "./checks/index.ts";
import type { Finding } from "./discovery.ts";
import type { CheckResult, Failure } from "./results.ts";
import { shapeOf } from "./results.ts";

/** One known failure: its check, operation and message with the quoted values blanked. */
export interface KnownFailure {
  /** The check that failed. */
  readonly check: CheckName;
  /** operationId of the request. */
  readonly operationId: string;
  /** The message's shape (`shapeOf`): values and numbers blanked, so another seed's values match too. */
  readonly message: string;
}

/** Known failures and accepted findings (`--baseline FILE`, written by `--update-baseline`). */
export interface Baseline {
  /** Failures that do not fail the run. */
  readonly failures: readonly KnownFailure[];
  /** Findings accepted as the server's decisions, by name: the value seen when the baseline was written. */
  readonly findings: Readonly<Record<string, unknown>>;
}

/** Reads a parsed baseline file, throwing a message naming the first bad field. */
export function parseBaseline(value: unknown, where: string): Baseline {
  const object = (value ?? {}) as { failures?: unknown; findings?: unknown };
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${where}: expected an object with failures and findings`);
  const failures = object.failures ?? [];
  if (!Array.isArray(failures)) throw new Error(`${where}.failures: expected an array`);
  failures.forEach((entry: unknown, index) => {
    const known = entry as Partial<KnownFailure> | null;
    if (!known || typeof known.check !== "string" || !isCheckName(known.check))
      throw new Error(`${where}.failures[${index}].check: expected a check name; got ${JSON.stringify(known?.check)}`);
    if (typeof known.operationId !== "string" || typeof known.message !== "string")
      throw new Error(`${where}.failures[${index}]: expected operationId and message strings`);
  });
  const findings = object.findings ?? {};
  if (typeof findings !== "object" || findings === null || Array.isArray(findings))
    throw new Error(`${where}.findings: expected an object of finding name to value`);
  return { failures: failures as KnownFailure[], findings: findings as Record<string, unknown> };
}

/** Whether the baseline lists this failure of this check. */
export function isKnownFailure(baseline: Baseline | undefined, check: CheckName, failure: Failure): boolean {
  return (
    baseline?.failures.some((known) => known.check === check && known.operationId === failure.operationId && known.message === shapeOf(failure.message)) ??
    false
  );
}

/** Marks the failures the baseline lists as known; returns how many are new. */
export function applyBaseline(checks: readonly CheckResult[], baseline: Baseline | undefined): number {
  let fresh = 0;
  for (const check of checks) {
    for (const failure of check.failures) {
      failure.known = isKnownFailure(baseline, check.name, failure);
      if (!failure.known) fresh += 1;
    }
  }
  return fresh;
}

/** The baseline of a run: every failure it found and every finding it made. */
export function baselineOf(checks: readonly CheckResult[], findings: readonly Finding[]): Baseline {
  const failures = checks.flatMap((check) =>
    check.failures.map((failure) => ({ check: check.name, operationId: failure.operationId, message: shapeOf(failure.message) })),
  );
  const unique = failures.filter((failure, index) => failures.findIndex((other) => JSON.stringify(other) === JSON.stringify(failure)) === index);
  return { failures: unique, findings: Object.fromEntries(findings.map((finding) => [finding.name, finding.value])) };
}
