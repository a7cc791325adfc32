/**
 * The rule catalog's seed side as data: reads `rules.yaml` (every rule the service states: its id, where the seed
 * states it, its words), checks it, and generates `src/rules.generated.ts`, which the conformance kit reads (its
 * probe families, declared beside its checks, name the rules they test by id). Run by `scripts/decisions.ts`
 * (`pnpm --filter @bot-conversation/openapi decisions`), which writes it, or with `--check` fails when it is stale.
 */
import { parse } from "yaml";

/** Where the catalog and its module live, relative to the package. */
export const rulePaths = { yaml: "rules.yaml", module: "src/rules.generated.ts" } as const;

/** A rule, as `rules.yaml` writes it. */
export interface RuleEntry {
  readonly id: string;
  readonly seed: string;
  readonly text: string;
}

/** The fields a rule has: the seed's side alone (a probe family is the kit's, beside its check). */
const ruleFields = ["id", "seed", "text"] as const;

/** Reads and checks the catalog: every problem names the entry and the field. */
export function readRules(text: string): { rules: RuleEntry[] } {
  const parsed = parse(text) as { rules?: unknown } | null;
  if (!parsed || !Array.isArray(parsed.rules)) throw new Error(`${rulePaths.yaml}: expected rules, a list`);
  const problems: string[] = [];
  const unknown = Object.keys(parsed).filter((key) => key !== "rules");
  if (unknown.length > 0)
    problems.push(`${rulePaths.yaml}: expected only rules; got ${unknown.join(", ")} (a probe family is the conformance kit's, beside its check)`);
  const kebab = /^[a-z0-9]+(-[a-z0-9]+)*$/;
  const ids = new Set<string>();
  (parsed.rules as RuleEntry[]).forEach((rule, index) => {
    const where = `${rulePaths.yaml} rule ${index + 1} (${rule?.id ?? "no id"})`;
    if (typeof rule?.id !== "string" || !kebab.test(rule.id)) problems.push(`${where}: id: expected kebab case`);
    else if (ids.has(rule.id)) problems.push(`${where}: id ${JSON.stringify(rule.id)} is used twice`);
    else ids.add(rule.id);
    for (const field of ["seed", "text"] as const)
      if (typeof rule?.[field] !== "string" || rule[field] === "") problems.push(`${where}: ${field}: expected a text`);
    const extra = Object.keys(rule ?? {}).filter((key) => !(ruleFields as readonly string[]).includes(key));
    if (extra.length > 0) problems.push(`${where}: expected only ${ruleFields.join(", ")}; got ${extra.join(", ")}`);
  });
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return { rules: parsed.rules as RuleEntry[] };
}

/** The module the kit reads (`@bot-conversation/openapi`'s `rules`). */
export function rulesModule(catalog: { rules: readonly RuleEntry[] }): string {
  return [
    "// Generated from rules.yaml by scripts/rules.ts (pnpm --filter @bot-conversation/openapi decisions): do not edit.",
    "",
    "/** Every rule the service states, in the seed's order: its id, where the seed states it, and its words. */",
    `export const rules = ${JSON.stringify(catalog.rules, null, 2)} as const;`,
    "",
  ].join("\n");
}
