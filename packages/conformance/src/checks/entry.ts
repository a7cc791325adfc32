/**
 * An entry of the kit's one catalog (issue 48, item 7): a check by the name reports use, what it checks, the rule it
 * holds the server to, its function where the session applies it everywhere, the phases that feed it, the relations
 * whose failures are its own, and the probe families that test the seed's rules through it. Each check's module
 * exports its entry; `checks/index.ts` assembles the catalog from them, in report order.
 */
import type { ProbeFamily } from "./family.ts";
import type { ExchangeCheck } from "./types.ts";

export type { JudgedOn, ProbeFamily, RuleGenerator } from "./family.ts";

/** A relation as the catalog and the report name it: what it transforms or compares, and the rule that says the answers relate. */
export interface CatalogRelation {
  readonly name: string;
  readonly description: string;
  readonly rule: string;
}

/**
 * A check of the catalog: what it checks and the rule it holds the server to; for a check of every
 * response (`onEvery: "response"`, applied by the session) or of every 200 search page a phase reads
 * (`onEvery: "page"`), its function. The other checks' functions are in their module beside the entry,
 * each named in its doc comment after the check, and called by the phases that feed it.
 */
export interface CatalogEntry {
  /** The check's name, snake case (`ignored_auth`): the vocabulary of every report. */
  readonly name: string;
  /** What it checks, in one line. */
  readonly description: string;
  /** The rule of the seed or the description it holds the server to. */
  readonly rule: string;
  /** Applied by the session to every response, or to every 200 search page a phase reads. */
  readonly onEvery?: "response" | "page";
  /** Its function, for a check `onEvery` response or page. */
  readonly check?: ExchangeCheck;
  /** The phases that feed the check, by their names (`phases/index.ts`, which reads each phase's checks from here); none for a check only of every response. */
  readonly phases: readonly string[];
  /** The relations whose failures are the check's, each counted in the report's Relations section, in report order. */
  readonly relations?: readonly CatalogRelation[];
  /** The probe families that feed the check, each with the seed's rules it tests and its words; a family feeding two checks is named by both. */
  readonly families: readonly ProbeFamily[];
}
