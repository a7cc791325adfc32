/**
 * A probe family of the kit's one catalog: the seed's rules it tests (by their ids in `rules.yaml` of
 * `@bot-conversation/openapi`, which holds only the seed's side), what it sends, in words, and how it is judged.
 * Each is declared once, in the module of the check (or of the probes) it belongs to, and named in the catalog
 * entry of every check it feeds (`families`); a phase tags a case with it (`Case.family`).
 */
import type { RuleId } from "@bot-conversation/openapi";

/** The failures of a check a family is judged on: those with a problem that came from one of these JSON Schema keywords. */
export interface JudgedOn {
  /** The keywords (`enum`, `const`). */
  readonly keywords: readonly string[];
}

/** A generator of the values of one rule of the seed: the rule's id (`variable-date-time`); what it generates is its module's. */
export interface RuleGenerator {
  /** The rule whose values it generates. */
  readonly rule: RuleId;
}

/** A probe family: generated from a rule's subject, covering its neighbourhood. */
export interface ProbeFamily {
  /** Stable name, kebab case (`credential-channels`). */
  readonly name: string;
  /** What it sends, in words. */
  readonly probes: string;
  /** The seed's rules it tests, by id (`auth-401`), in the seed's order. */
  readonly rules: readonly RuleId[];
  /** Judged on its own probes, which the phases tag (a case's `family`), not on its checks over the whole run. */
  readonly tagged?: true;
  /** Judged on part of its checks' failures: those with a problem from one of these schema keywords. */
  readonly judgedOn?: JudgedOn;
  /** The generators its probes are drawn from, each naming the rule it generates for (one of `rules`). */
  readonly generators?: readonly RuleGenerator[];
}
