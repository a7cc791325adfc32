/**
 * The rule catalog as data: reads `rules.yaml` (every rule the service states, and the conformance
 * kit's probe families that test each), checks it, and generates `src/rules.generated.ts`, which the
 * kit reads. Run by `scripts/decisions.ts` (`pnpm --filter @bot-conversation/openapi decisions`), which
 * writes it, or with `--check` fails when it is stale.
 */
import { parse } from "yaml";

/** Where the catalog and its module live, relative to the package. */
export const rulePaths = { yaml: "rules.yaml", module: "src/rules.generated.ts" } as const;

/** A probe family, as `rules.yaml` writes it. */
export interface FamilyEntry {
  readonly name: string;
  readonly checks: readonly string[];
  readonly probes: string;
}

/** A rule, as `rules.yaml` writes it. */
export interface RuleEntry {
  readonly id: string;
  readonly seed: string;
  readonly text: string;
  readonly families: readonly string[];
}

/** Reads and checks the catalog: every problem names the entry and the field. */
export function readRules(text: string): { families: FamilyEntry[]; rules: RuleEntry[] } {
  const parsed = parse(text) as { families?: unknown; rules?: unknown } | null;
  if (!parsed || !Array.isArray(parsed.families) || !Array.isArray(parsed.rules)) throw new Error(`${rulePaths.yaml}: expected families and rules, two lists`);
  const problems: string[] = [];
  const kebab = /^[a-z0-9]+(-[a-z0-9]+)*$/;
  const names = new Set<string>();
  (parsed.families as FamilyEntry[]).forEach((family, index) => {
    const where = `${rulePaths.yaml} family ${index + 1} (${family?.name ?? "no name"})`;
    if (typeof family?.name !== "string" || !kebab.test(family.name)) problems.push(`${where}: name: expected kebab case`);
    else if (names.has(family.name)) problems.push(`${where}: name ${JSON.stringify(family.name)} is used twice`);
    else names.add(family.name);
    if (!Array.isArray(family?.checks) || family.checks.length === 0 || !family.checks.every((check) => /^[a-z]+(_[a-z]+)*$/.test(check)))
      problems.push(`${where}: checks: expected a list of the kit's check names (snake case)`);
    if (typeof family?.probes !== "string" || family.probes === "") problems.push(`${where}: probes: expected a text`);
  });
  const ids = new Set<string>();
  const used = new Set<string>();
  (parsed.rules as RuleEntry[]).forEach((rule, index) => {
    const where = `${rulePaths.yaml} rule ${index + 1} (${rule?.id ?? "no id"})`;
    if (typeof rule?.id !== "string" || !kebab.test(rule.id)) problems.push(`${where}: id: expected kebab case`);
    else if (ids.has(rule.id)) problems.push(`${where}: id ${JSON.stringify(rule.id)} is used twice`);
    else ids.add(rule.id);
    for (const field of ["seed", "text"] as const)
      if (typeof rule?.[field] !== "string" || rule[field] === "") problems.push(`${where}: ${field}: expected a text`);
    if (!Array.isArray(rule?.families)) problems.push(`${where}: families: expected a list (empty for a rule no probe tests)`);
    for (const family of rule?.families ?? []) {
      if (!names.has(family)) problems.push(`${where}: families: ${JSON.stringify(family)} is no family of the catalog`);
      used.add(family);
    }
  });
  for (const name of names) if (!used.has(name)) problems.push(`${rulePaths.yaml}: family ${JSON.stringify(name)} tests no rule`);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return { families: parsed.families as FamilyEntry[], rules: parsed.rules as RuleEntry[] };
}

/** The module the kit reads (`@bot-conversation/openapi`'s `rules` and `probeFamilies`). */
export function rulesModule(catalog: { families: readonly FamilyEntry[]; rules: readonly RuleEntry[] }): string {
  return [
    "// Generated from rules.yaml by scripts/rules.ts (pnpm --filter @bot-conversation/openapi decisions): do not edit.",
    "",
    "/** The conformance kit's probe families, in the order of rules.yaml: the checks each feeds and what it sends. */",
    `export const probeFamilies = ${JSON.stringify(catalog.families, null, 2)} as const;`,
    "",
    "/** Every rule the service states, in the seed's order: where it is stated, its text, and the families that test it. */",
    `export const rules = ${JSON.stringify(catalog.rules, null, 2)} as const;`,
    "",
  ].join("\n");
}
