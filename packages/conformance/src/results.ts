import { curlOf, type Exchange } from "./case.ts";
import { checkDescriptions, checkNames, type CheckName } from "./checks/index.ts";

/** One way a check failed, with a request that shows it. */
export interface Failure {
  /** What was expected and what came back. */
  readonly message: string;
  /** operationId of the request. */
  readonly operationId: string;
  /** Status of the response, or null when none came. */
  readonly status: number | null;
  /** A curl command that reproduces it; the token is written `$TOKEN`. */
  readonly curl: string;
  /** The start of the response body. */
  readonly responseExcerpt: string;
}

/** How one check fared over the run. */
export interface CheckResult {
  /** The check's name, e.g. `ignored_auth`. */
  readonly name: CheckName;
  /** What it checks, in one sentence. */
  readonly description: string;
  /** Exchanges (or walks) the check held for. */
  passed: number;
  /** Exchanges (or walks) the check failed for. */
  failed: number;
  /** Distinct failures (by message), the smallest reproduction of each, at most ten. */
  readonly failures: Failure[];
  /** Why the check never ran, when it did not. */
  skipped: string | undefined;
}

const maxFailuresPerCheck = 10;

/** Collects the outcome of every check. */
export class Results {
  /** Results by check, in report order. */
  readonly checks = new Map<CheckName, CheckResult>(
    checkNames.map((name) => [name, { name, description: checkDescriptions[name], passed: 0, failed: 0, failures: [], skipped: undefined }]),
  );
  private readonly sizes = new Map<Failure, number>();

  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /** Records one outcome of a check: `problem` undefined when it held. */
  record(name: CheckName, exchange: Exchange, problem: string | undefined): void {
    const result = this.checks.get(name)!;
    if (problem === undefined) {
      result.passed += 1;
      return;
    }
    result.failed += 1;
    const failure: Failure = {
      message: problem,
      operationId: exchange.case.operationId,
      status: exchange.status,
      curl: curlOf(this.baseUrl, exchange.case),
      responseExcerpt: exchange.text.slice(0, 300),
    };
    // Keep the smallest request per distinct message: the shrunk reproduction wins over the first one found.
    const size = failure.curl.length;
    const index = result.failures.findIndex((known) => known.message === problem || sameShape(known.message, problem));
    const known = index === -1 ? undefined : result.failures[index];
    if (known && index !== -1) {
      if (size < (this.sizes.get(known) ?? Infinity)) {
        result.failures[index] = failure;
        this.sizes.set(failure, size);
      }
    } else if (result.failures.length < maxFailuresPerCheck) {
      result.failures.push(failure);
      this.sizes.set(failure, size);
    }
  }

  /** Marks a check that could not run, with the reason (kept only if it never ran otherwise). */
  skip(name: CheckName, reason: string): void {
    this.checks.get(name)!.skipped ??= reason;
  }

  /** Whether any check failed. */
  get hasFailures(): boolean {
    return [...this.checks.values()].some((result) => result.failed > 0);
  }
}

/** Two messages that differ only in the values quoted in them describe the same fault. */
function sameShape(left: string, right: string): boolean {
  const shape = (message: string): string => message.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/-?\d+(\.\d+)?/g, "0");
  return shape(left) === shape(right);
}
