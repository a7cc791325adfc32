import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readRules, rulesModule } from "../scripts/rules.ts";
import { probeFamilies, rules } from "../src/index.ts";

const yaml = readFileSync(new URL("../rules.yaml", import.meta.url), "utf8");

describe("rules.yaml: every rule the service states, and the probe families that test it", () => {
  it("the generated module agrees with it (pnpm --filter @bot-conversation/openapi decisions writes it)", () => {
    expect(readFileSync(new URL("../src/rules.generated.ts", import.meta.url), "utf8")).toBe(rulesModule(readRules(yaml)));
  });

  it("both Rule: lines of the seed and each status of its Errors table are rules, each tested by a family", () => {
    const ids = rules.map((rule) => rule.id);
    for (const id of ["fire-rule-not-found", "fire-rule-validation", "auth-401", "auth-only-method"]) expect(ids).toContain(id);
    expect(rules.filter((rule) => rule.seed.startsWith("Errors > ")).map((rule) => rule.seed)).toHaveLength(8);
    expect(rules.filter((rule) => (rule.families as readonly string[]).length === 0)).toEqual([]);
    expect(new Set(rules.flatMap((rule) => rule.families))).toEqual(new Set(probeFamilies.map((family) => family.name)));
  });

  it("refuses a rule naming no family of the catalog, a family testing no rule, and an id used twice, naming the entry", () => {
    const family = "families:\n  - {name: a-family, checks: [ignored_auth], probes: some}\n";
    expect(() => readRules(`${family}rules:\n  - {id: r, seed: S, text: T, families: [other]}\n`)).toThrow(
      'rules.yaml rule 1 (r): families: "other" is no family of the catalog',
    );
    expect(() =>
      readRules(`${family}  - {name: unused, checks: [ignored_auth], probes: x}\nrules:\n  - {id: r, seed: S, text: T, families: [a-family]}\n`),
    ).toThrow('rules.yaml: family "unused" tests no rule');
    expect(() =>
      readRules(`${family}rules:\n  - {id: r, seed: S, text: T, families: [a-family]}\n  - {id: r, seed: S, text: T, families: [a-family]}\n`),
    ).toThrow('rules.yaml rule 2 (r): id "r" is used twice');
    expect(() => readRules(`${family}rules:\n  - {id: r, text: T, families: [a-family]}\n`)).toThrow("rules.yaml rule 1 (r): seed: expected a text");
  });
});
