/**
 * Every rule the service states: `rules.yaml`, as the generated module holds it, the seed's side alone (its id,
 * where the seed states it, its words). The conformance kit's probe families, declared beside its checks, name the
 * rules they test by id; the kit reads this for its per-rule table (rule, where the seed states it, families run,
 * verdict) and its README's `rule → family` table. The open points are `decisions.ts`'s.
 */
import { rules } from "./rules.generated.js";

export { rules };

/** A rule the service states. */
export interface Rule {
  /** Stable id, kebab case (`auth-401`). */
  readonly id: string;
  /** Where the seed states it: section > table > row. */
  readonly seed: string;
  /** The rule, in the seed's words. */
  readonly text: string;
}

/** The id of a rule. */
export type RuleId = (typeof rules)[number]["id"];

// The generated data has the shape above (a compile error otherwise).
const checkedRules: readonly Rule[] = rules;
void checkedRules;
