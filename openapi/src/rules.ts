/**
 * Every rule the service states and the probe families of the conformance kit that test it:
 * `rules.yaml`, as the generated module holds it. The kit reads it for its per-rule table (rule, where
 * the seed states it, families run, verdict) and its README's `rule → family` table; the open points
 * are `decisions.ts`'s.
 */
import { probeFamilies, rules } from "./rules.generated.js";

export { probeFamilies, rules };

/** A probe family: generated from a rule's subject, covering its neighbourhood. */
export interface ProbeFamily {
  /** Stable name, kebab case (`credential-channels`). */
  readonly name: string;
  /** The kit's checks its probes feed. */
  readonly checks: readonly string[];
  /** What it sends, in words. */
  readonly probes: string;
}

/** A rule the service states. */
export interface Rule {
  /** Stable id, kebab case (`auth-401`). */
  readonly id: string;
  /** Where the seed states it: section > table > row. */
  readonly seed: string;
  /** The rule, in the seed's words. */
  readonly text: string;
  /** The families that test it. */
  readonly families: readonly FamilyName[];
}

/** The name of a probe family. */
export type FamilyName = (typeof probeFamilies)[number]["name"];

/** The id of a rule. */
export type RuleId = (typeof rules)[number]["id"];

// The generated data has the shapes above (a compile error otherwise).
const checkedFamilies: readonly ProbeFamily[] = probeFamilies;
const checkedRules: readonly Rule[] = rules;
void checkedFamilies;
void checkedRules;
