import { curlOf, type Exchange, requestLineOf } from "./case.ts";
import { type CheckName, catalogEntry, checkCatalog, checkNames, type FamilyName } from "./checks/index.ts";
import { failureText, notApplicable, type Verdict } from "./checks/types.ts";
import { familyResults, type RuleResult, ruleResults, seedRulesOf, type Tally } from "./families.ts";
import type { CheckResult, Failure } from "./outcomes.ts";

export type { CheckResult, CheckStatus, Failure } from "./outcomes.ts";

const maxFailuresPerCheck = 10;

/** Collects the outcome of every check. */
export class Results {
  /** Results by check, in report order. */
  readonly checks = new Map<CheckName, CheckResult>(
    checkNames.map((name) => [
      name,
      {
        name,
        description: checkCatalog[name].description,
        rule: checkCatalog[name].rule,
        passed: 0,
        failed: 0,
        notJudged: 0,
        notJudgedReasons: [],
        failures: [],
        skipped: undefined,
        status: "not run",
      },
    ]),
  );
  private readonly sizes = new Map<Failure, number>();
  /** What the probes of each tagged family came to (`families.ts`). */
  private readonly tallies = new Map<FamilyName, Tally>();
  private readonly baseUrl: string;
  private readonly selected: ReadonlySet<CheckName>;
  private readonly onFailure: () => void;
  private readonly isKnown: (name: CheckName, failure: Failure) => boolean;
  /** New failures (not known to the baseline) recorded so far. */
  private fresh = 0;

  /** `onFailure` runs after each new failure; `isKnown` says which failures the baseline lists. */
  constructor(
    baseUrl: string,
    selected: ReadonlySet<CheckName> = new Set(checkNames),
    onFailure: () => void = () => {},
    isKnown: (name: CheckName, failure: Failure) => boolean = () => false,
  ) {
    this.baseUrl = baseUrl;
    this.selected = selected;
    this.onFailure = onFailure;
    this.isKnown = isKnown;
  }

  /** Whether a check was selected for this run (`--checks`, `--exclude-checks`). */
  isSelected(name: CheckName): boolean {
    return this.selected.has(name);
  }

  /** Records one verdict of a check on an exchange; `before` are earlier requests the verdict also rests on. */
  record(name: CheckName, exchange: Exchange, verdict: Verdict, before: readonly Exchange[] = []): void {
    if (verdict === notApplicable || !this.selected.has(name)) return;
    this.tally(name, exchange, verdict);
    const result = this.checks.get(name)!;
    if (verdict === undefined) {
      result.passed += 1;
      return;
    }
    if (typeof verdict === "object" && "notJudged" in verdict) {
      result.notJudged += 1;
      if (!result.notJudgedReasons.includes(verdict.notJudged) && result.notJudgedReasons.length < 5) result.notJudgedReasons.push(verdict.notJudged);
      return;
    }
    result.failed += 1;
    const message = failureText(verdict)!;
    const problems = typeof verdict === "object" ? verdict.problems : [];
    const excerpt = exchange.text.slice(0, 300);
    const failure: Failure = {
      message,
      rule: result.rule,
      problems,
      seed: seedRulesOf(
        name,
        exchange.case.family?.name as FamilyName | undefined,
        problems.map((problem) => problem.pointer),
      ),
      operationId: exchange.case.operationId,
      status: exchange.status,
      sent: requestLineOf(this.baseUrl, exchange.case),
      received: exchange.status === 0 ? "no response" : `${exchange.status}${excerpt ? ` ${excerpt.replaceAll("\n", " ")}` : " (empty body)"}`,
      curl: curlOf(this.baseUrl, exchange.case),
      requests: [...before, exchange].map((each) => curlOf(this.baseUrl, each.case)),
      responseExcerpt: excerpt,
      known: false,
    };
    failure.known = this.isKnown(name, failure);
    // Keep the smallest request per distinct message: the shrunk reproduction wins over the first one found.
    const size = failure.curl.length;
    const index = result.failures.findIndex((known) => known.message === message || sameShape(known.message, message));
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
    if (!failure.known) {
      this.fresh += 1;
      this.onFailure();
    }
  }

  /** Counts a verdict for the tagged family of the exchange's case, when the family feeds this check. */
  private tally(name: CheckName, exchange: Exchange, verdict: Verdict): void {
    const family = exchange.case.family;
    if (!family?.tagged || !catalogEntry(name).families.includes(family)) return;
    const tally = this.tallies.get(family.name as FamilyName) ?? { passed: 0, failed: 0, notJudged: 0 };
    this.tallies.set(family.name as FamilyName, tally);
    if (verdict === undefined) tally.passed += 1;
    else if (typeof verdict === "object" && "notJudged" in verdict) tally.notJudged += 1;
    else tally.failed += 1;
  }

  /** The per-rule table of the finished checks: each rule, the families that test it and how they fared. */
  rules(checks: readonly CheckResult[]): RuleResult[] {
    return ruleResults(familyResults(checks, this.tallies));
  }

  /** Marks a check that could not run (or ran only in part), with the reason; the first reason stays. */
  skip(name: CheckName, reason: string): void {
    this.checks.get(name)!.skipped ??= reason;
  }

  /** New failures (those the baseline does not list) recorded so far, over every check. */
  get failureCount(): number {
    return this.fresh;
  }

  /** Sets each check's status (and the reason of a check that never ran); call once the run ends. */
  finish(stopped: string | undefined): CheckResult[] {
    return checkNames.map((name) => {
      const result = this.checks.get(name)!;
      if (!this.selected.has(name)) result.skipped = "excluded by --checks / --exclude-checks";
      result.status = result.failed > 0 ? "failed" : result.passed > 0 ? "passed" : result.notJudged > 0 ? "not judged" : "not run";
      if (result.status === "not run" && result.skipped === undefined) {
        result.skipped = stopped ? `the run stopped (${stopped}) before it ran` : "no request of this run applied to it";
      }
      return result;
    });
  }
}

/** Two messages that differ only in the values quoted in them describe the same fault. */
export function sameShape(left: string, right: string): boolean {
  return shapeOf(left) === shapeOf(right);
}

/** A message with its quoted values and numbers blanked: what a baseline matches on. */
export function shapeOf(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?/g, "<date>")
    .replace(/-?\d+(\.\d+)?/g, "0");
}
