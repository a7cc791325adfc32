/** The per-rule table of a report (rule, where the seed states it, families run, verdict), as the human and HTML reports write it. */
import type { FamilyResult, RuleResult, RuleVerdict } from "../families.ts";

/** The mark of a verdict, as the checks use them. */
export const verdictMarks: Record<RuleVerdict, string> = { failed: "✗", passed: "✓", "not judged": "?", "not run": "-", "no probe": "!" };

/** A family as one cell: its name, its mark, and how many probes it judged (`credential-channels ✓27`). */
export const familyCell = (family: FamilyResult): string =>
  `${family.name} ${verdictMarks[family.status]}${family.status === "not run" ? "" : family.failed > 0 ? `${family.failed}/${family.passed + family.failed}` : family.passed + family.notJudged}`;

/** The counts of the rules by verdict, in a sentence. */
export function rulesSummary(rules: readonly RuleResult[]): string {
  const count = (verdict: RuleVerdict): number => rules.filter((rule) => rule.verdict === verdict).length;
  return `${rules.length} rules the service states: ${count("passed")} held, ${count("failed")} failed, ${count("not judged")} not judged, ${count("not run")} not probed in this run, ${count("no probe")} with no probe family`;
}

/** The human table: one line a rule. */
export function rulesText(rules: readonly RuleResult[]): string[] {
  const width = Math.max(...rules.map((rule) => rule.id.length));
  return [
    `Rules (${rulesSummary(rules)}; ✓n: n probes held, ✗f/n: f of n failed)`,
    ...rules.map(
      (rule) =>
        `  ${verdictMarks[rule.verdict]} ${rule.id.padEnd(width)}  ${rule.seed}: ${rule.families.length === 0 ? "no probe family" : rule.families.map(familyCell).join(", ")}`,
    ),
  ];
}

/** The README's tables, from the catalog: each family (its checks and probes), then each rule and the families that name it. */
export function catalogTables(
  families: readonly { name: string; checks: readonly string[]; probes: string; rules: readonly string[] }[],
  rules: readonly { id: string; seed: string }[],
): string {
  const cell = (text: string): string => text.replaceAll("|", "\\|");
  const familiesOf = (id: string): string[] => families.filter((family) => family.rules.includes(id)).map((family) => family.name);
  return [
    "| Family | Checks | Probes |",
    "|---|---|---|",
    ...families.map((family) => `| \`${family.name}\` | ${family.checks.map((check) => `\`${check}\``).join(", ")} | ${cell(family.probes)} |`),
    "",
    "| Rule | Where the seed states it | Families |",
    "|---|---|---|",
    ...rules.map((rule) => {
      const named = familiesOf(rule.id);
      return `| \`${rule.id}\` | ${cell(rule.seed)} | ${named.length === 0 ? "none" : named.map((name) => `\`${name}\``).join(", ")} |`;
    }),
  ].join("\n");
}
