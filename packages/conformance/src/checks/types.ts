import type { Exchange } from "../case.ts";
import type { AcceptedDecisions } from "../decisions.ts";
import type { Description } from "../description.ts";

/** What checks know besides the exchange. */
export interface CheckContext {
  /** The description the server is checked against. */
  readonly description: Description;
  /** `pageIndex` of the first page, as the server reports it for a request without one (0 or 1). */
  readonly pageBase: number;
  /** The open-point decisions the team accepts for its server (`--config`'s `decisions`); empty by default. */
  readonly decisions: AcceptedDecisions;
  /** The page size of a search without `pageSize`, once known: a larger one may be past the server's maximum (an open point). */
  readonly defaultPageSize?: number | undefined;
  /** The bound of `max_response_time` in milliseconds, when the check is asked for. */
  readonly maxResponseTimeMs?: number | undefined;
}

/** The check does not apply to this exchange at all (another operation, another status): nothing is counted. */
export const notApplicable: unique symbol = Symbol("not applicable");

/** The check applies but cannot decide (say, the body was not a page); counted as not judged, with the reason. */
export interface NotJudged {
  /** Why no verdict could be reached. */
  readonly notJudged: string;
}

/** A not-judged verdict with its reason. */
export const notJudged = (reason: string): NotJudged => ({ notJudged: reason });

/** Where a problem of a value against a schema is, and the JSON Schema keyword it came from (`enum`, `const`, `type`, `format`, `required`, …). */
export interface KeywordProblem {
  /** JSON pointer of the value in the body (`/items/0/status`); `/` for the body itself. */
  readonly pointer: string;
  /** The schema keyword the value failed. */
  readonly keyword: string;
}

/** A failure that came from a schema: what broke, in words, and each problem's place and keyword, as data. */
export interface SchemaFailed {
  /** What was expected and what came back. */
  readonly failed: string;
  /** The problems the words list, in their order. */
  readonly problems: readonly KeywordProblem[];
}

/** The outcome of a check on one exchange: `undefined` held, a string (or a schema's failure) says what broke, or not applicable / not judged. */
export type Verdict = string | undefined | typeof notApplicable | NotJudged | SchemaFailed;

/** What a failed verdict says broke; undefined for a verdict that is no failure. */
export const failureText = (verdict: Verdict): string | undefined =>
  typeof verdict === "string" ? verdict : typeof verdict === "object" && "failed" in verdict ? verdict.failed : undefined;

/** A check of one exchange: returns what was wrong (expected vs received), or undefined when it holds. */
export type ExchangeCheck = (exchange: Exchange, context: CheckContext) => Verdict;

/** Shows a value in a failure message, cut to 120 characters. */
export function shown(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 120)}...` : text;
}
