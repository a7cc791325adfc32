/**
 * What a run's checks came to, as data: a failure with the requests that show it, a check's outcome, and a rule of
 * the seed a failure quotes. Types only, read by the results, the rule catalog and every report.
 */
import type { CheckName } from "./checks/index.ts";
import type { KeywordProblem } from "./checks/types.ts";

export type { KeywordProblem } from "./checks/types.ts";

/** A rule of the seed a failure breaks: its id, where the seed states it, and the rule in the seed's words. */
export interface SeedQuote {
  /** The rule's id in `rules.yaml` (`auth-401`). */
  readonly id: string;
  /** Where the seed states it: section > table > row. */
  readonly where: string;
  /** The rule, in the seed's words. */
  readonly text: string;
}

/** One way a check failed, with the requests that show it. */
export interface Failure {
  /** What was expected and what came back. */
  readonly message: string;
  /** The rule of the seed or the description that the server broke. */
  readonly rule: string;
  /** For a failure of a schema, each problem its message lists: the JSON pointer and the JSON Schema keyword it came from (`enum`, `const`, `type`, …); empty otherwise. */
  readonly problems: readonly KeywordProblem[];
  /** The rules of the seed it breaks, each quoted with where the seed states it (`rules.yaml`); empty for a check whose ground is not the seed. */
  readonly seed: readonly SeedQuote[];
  /** operationId of the request. */
  readonly operationId: string;
  /** Status of the response, or null when none came. */
  readonly status: number | null;
  /** The value sent: method, URL and body of the (last) request; the token is written `$BOT_CONVERSATION_TOKEN`. */
  readonly sent: string;
  /** The value received: status and the start of the body. */
  readonly received: string;
  /** A curl command that reproduces the (last) request; the token is written `$BOT_CONVERSATION_TOKEN`. */
  readonly curl: string;
  /** Every request the failure needs, in order, as curl commands (a walk, a comparison of two searches). */
  readonly requests: readonly string[];
  /** The start of the response body. */
  readonly responseExcerpt: string;
  /** Whether the baseline (`--baseline`) already lists it: a known failure does not fail the run. */
  known: boolean;
}

/** How a check ended: held, failed, ran but could not judge, or never ran. */
export type CheckStatus = "passed" | "failed" | "not judged" | "not run";

/** How one check fared over the run. */
export interface CheckResult {
  /** The check's name, e.g. `ignored_auth`. */
  readonly name: CheckName;
  /** What it checks, in one sentence. */
  readonly description: string;
  /** The rule it holds the server to. */
  readonly rule: string;
  /** Exchanges (or walks) the check held for. */
  passed: number;
  /** Exchanges (or walks) the check failed for. */
  failed: number;
  /** Exchanges the check applied to but could not judge. */
  notJudged: number;
  /** Why it could not judge, distinct reasons, at most five. */
  readonly notJudgedReasons: string[];
  /** Distinct failures (by message), the smallest reproduction of each, at most ten. */
  readonly failures: Failure[];
  /** Why the check never ran (or ran only in part), when it did not. */
  skipped: string | undefined;
  /** The outcome, set when the run ends. */
  status: CheckStatus;
}
