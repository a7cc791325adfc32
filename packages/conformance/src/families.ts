/**
 * The rule catalog as the kit runs it: every rule the service states (`rules.yaml` of
 * `@bot-conversation/openapi`: its id, where the seed states it, its words), the probe families of the
 * checks' catalog that test it (each family names the rules it tests), and, after a run, which families
 * ran and how each rule fared. A family is judged on its own probes where the phases tag them (a case's
 * `family`), else by its checks over the whole run; a rule fails when one of its families fails, and a
 * rule no family reached says so.
 */
import { pointerKeys, type Rule, rules } from "@bot-conversation/openapi";
import { type CatalogFamily, type CheckName, catalogFamilies, type FamilyName, type JudgedOn } from "./checks/index.ts";
import type { CheckResult, CheckStatus, Failure, SeedQuote } from "./outcomes.ts";

export type { SeedQuote } from "./outcomes.ts";

/** Every probe family of the catalog, in report order, with the checks it feeds (`catalogFamilies`). */
export const probeFamilies: readonly CatalogFamily[] = catalogFamilies;

/** The families whose probes the phases tag, judged on those requests alone: the families marked `tagged`. */
export const taggedFamilies: ReadonlySet<FamilyName> = new Set(probeFamilies.filter((family) => family.tagged).map((family) => family.name));

/** The families of a rule, by its id: those that name it, in report order. */
export const familiesOfRule = (id: string): CatalogFamily[] => probeFamilies.filter((family) => (family.rules as readonly string[]).includes(id));

/** Whether a failure is one of a family judged on part of its check's failures: one of its problems came from a keyword the family names. */
const judges = (filter: JudgedOn, failure: Failure): boolean => failure.problems.some((problem) => filter.keywords.includes(problem.keyword));

/** How many probes of a tagged family held, failed, or could not be judged. */
export interface Tally {
  passed: number;
  failed: number;
  notJudged: number;
}

/** How one family fared in a run. */
export interface FamilyResult {
  /** The family (`credential-channels`). */
  readonly name: FamilyName;
  /** The checks it feeds. */
  readonly checks: readonly CheckName[];
  /** Passed, failed, not judged, or not run. */
  readonly status: CheckStatus;
  /** Requests (or walks) it judged: held, failed, not judged. */
  readonly passed: number;
  readonly failed: number;
  readonly notJudged: number;
}

/** A rule's verdict: its families' worst, or `no probe` when the catalog names none. */
export type RuleVerdict = CheckStatus | "no probe";

/** How one rule fared: the row of the report's per-rule table. */
export interface RuleResult {
  /** The rule's id (`auth-401`). */
  readonly id: string;
  /** Where the seed states it. */
  readonly seed: string;
  /** The rule, in the seed's words. */
  readonly text: string;
  /** Its families, each with how it fared. */
  readonly families: readonly FamilyResult[];
  /** Failed if a family failed; passed if one passed and none failed; not judged; not run; no probe. */
  readonly verdict: RuleVerdict;
}

const statusOf = ({ passed, failed, notJudged }: Tally): CheckStatus =>
  failed > 0 ? "failed" : passed > 0 ? "passed" : notJudged > 0 ? "not judged" : "not run";

/** Every family of the catalog with how it fared: from its tagged probes, or from its checks' results. */
export function familyResults(checks: readonly CheckResult[], tallies: ReadonlyMap<FamilyName, Tally>): Map<FamilyName, FamilyResult> {
  const byName = new Map(checks.map((check) => [check.name, check]));
  return new Map(
    probeFamilies.map((family) => {
      const names = family.checks;
      let tally: Tally;
      if (family.tagged) tally = tallies.get(family.name) ?? { passed: 0, failed: 0, notJudged: 0 };
      else {
        const filter = family.judgedOn;
        const results = names.map((name) => byName.get(name)).filter((result): result is CheckResult => result !== undefined);
        const failed = results.reduce((sum, result) => sum + (filter ? result.failures.filter((failure) => judges(filter, failure)).length : result.failed), 0);
        tally = {
          passed: results.reduce((sum, result) => sum + result.passed + (filter ? result.failed : 0), 0) - failed,
          failed,
          notJudged: results.reduce((sum, result) => sum + result.notJudged, 0),
        };
        tally.passed = Math.max(tally.passed, 0);
      }
      return [family.name, { name: family.name, checks: names, status: statusOf(tally), ...tally }];
    }),
  );
}

const verdictOrder: readonly CheckStatus[] = ["failed", "passed", "not judged", "not run"];

/** The per-rule table: each rule of the catalog, its families and its verdict. */
export function ruleResults(families: ReadonlyMap<FamilyName, FamilyResult>): RuleResult[] {
  return (rules as readonly Rule[]).map((rule) => {
    const ran = familiesOfRule(rule.id).map((family) => families.get(family.name)!);
    const verdict: RuleVerdict = ran.length === 0 ? "no probe" : verdictOrder.find((status) => ran.some((family) => family.status === status))!;
    return { id: rule.id, seed: rule.seed, text: rule.text, families: ran, verdict };
  });
}

export { rules };

/** The field a rule is about (`startedOn: string, ...` is about `startedOn`), when its text starts with one. */
const subjectOf = (text: string): string | undefined => /^([A-Za-z][\w.]*):/.exec(text)?.[1];

/** At most this many rules quoted for one failure: past it, the failure's message did not say which rule it breaks. */
const maxQuotes = 5;

/** A JSON pointer as its field names, the deepest first (`/items/0/startedOn` → `["startedOn", "items"]`): array indexes dropped, `~1` and `~0` read back. */
export const fieldsOf = (pointer: string): string[] =>
  pointerKeys(pointer)
    .filter((part) => part !== "" && !/^\d+$/.test(part))
    .reverse();

/** What a rule about a field loses in rank when its owner is not the object holding the field: more than any depth. */
const unowned = 1_000;

/** A text's Latin letters alone, in lower case (`Platform channel object` → `platformchannelobject`). */
const lettersOf = (text: string): string => text.toLowerCase().replace(/[^a-z]/g, "");

/**
 * Whether a rule's owner (the part of its seed locator before its field: `Member` of `Resources > Member > id`) is the
 * object a pointer's key holds (`members`, `member`): the key, in lower case and without a plural's `s`, begins the
 * owner's words (`platform` begins `Platform channel object`).
 */
function ownedBy(rule: Rule, key: string | undefined): boolean {
  const parts = rule.seed.split(" > ");
  if (key === undefined || parts.length < 3) return false;
  const held = lettersOf(key).replace(/s$/, "");
  return held !== "" && lettersOf(parts.at(-2)!).startsWith(held);
}

/**
 * The rules of the seed a failure of `check` breaks, quoted from the catalog: those of the case's family when it
 * feeds the check (a tagged probe), else of every family feeding the check; of many, those about a field the
 * failure's problems are placed at (`pointers`, the JSON pointers of a schema's failure: `startedOn` of
 * `/items/0/startedOn` first, then `items`), never the field names its words list (`expected only the properties a, b here`). A rule about
 * the field whose owner is the object holding it ranks first (`/items/0/members/1/id`: the Member's `id`, not the
 * summary's). Empty for a check no family feeds (its `rule` names its ground: the description, an RFC's MUST, or
 * your own bound).
 */
export function seedRulesOf(check: CheckName, family: FamilyName | undefined, pointers: readonly string[]): SeedQuote[] {
  const feeding = probeFamilies.filter((entry) => entry.checks.includes(check));
  const families = feeding.some((entry) => entry.name === family) ? feeding.filter((entry) => entry.name === family) : feeding;
  const candidates = (rules as readonly Rule[]).filter((rule) => families.some((entry) => (entry.rules as readonly string[]).includes(rule.id)));
  // Each rule's rank: the shallowest field it is about (its owner holding it first); none for a rule about no field the pointers name.
  const fields = pointers.map(fieldsOf);
  const rankOf = (rule: Rule): number => {
    const subject = subjectOf(rule.text);
    const ranks = fields.flatMap((names) =>
      names.flatMap((name, depth) => (name === subject ? [depth + (ownedBy(rule, names[depth + 1]) ? 0 : unowned)] : [])),
    );
    return ranks.length > 0 ? Math.min(...ranks) : Number.POSITIVE_INFINITY;
  };
  const named = candidates.filter((rule) => rankOf(rule) !== Number.POSITIVE_INFINITY).sort((left, right) => rankOf(left) - rankOf(right));
  const chosen = named.length > 0 ? named : candidates;
  return chosen.slice(0, maxQuotes).map((rule) => ({ id: rule.id, where: rule.seed, text: rule.text }));
}
