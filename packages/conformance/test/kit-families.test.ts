import { rules as catalogRules } from "@bot-conversation/openapi";
import { describe, expect, it } from "vitest";
import { probeFamilies } from "../src/index.ts";
import { familyFaults } from "./support/family-faults.ts";
import { caseTimeoutMs, failing, familySeeds, seedRunner, why } from "./support/kit-seeds.ts";
import { useSandbox } from "./support/sandbox.ts";

const runSeeds = seedRunner(useSandbox());

describe("the rule catalog: one planted fault per probe family, caught by its family and by no unrelated check", () => {
  // The family's own checks, the check the fault is meant for, and those that may rightly catch it too.
  const planted = probeFamilies.map((family) => ({ family: family.name, own: family.checks as readonly string[], ...familyFaults[family.name] }));

  it.each(planted)("$family: $name", { timeout: caseTimeoutMs }, async ({ family, own, check, related = [], fault, options }) => {
    for (const report of await runSeeds(fault, options, familySeeds)) {
      const failed = failing(report);
      expect(failed, `seed ${report.seed}`).toContain(check);
      expect(
        failed.filter((name) => name !== check && !own.includes(name) && !(related as readonly string[]).includes(name)),
        why(report),
      ).toEqual([]);
      // Every failure of the planted check names the seed's words it breaks: a rule of the catalog, quoted.
      for (const failure of report.checks.find((each) => each.name === check)!.failures) {
        expect(failure.seed.length, `${failure.message}, seed ${report.seed}`).toBeGreaterThan(0);
        for (const quote of failure.seed) expect(catalogRules.find((rule) => rule.id === quote.id)?.text).toBe(quote.text);
      }
      // The per-rule table says so: every rule this family tests failed, and the family with it.
      const rules = report.rules.filter((rule) => rule.families.some((each) => each.name === family));
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) {
        expect(rule.families.find((each) => each.name === family)!.status, `${rule.id}, seed ${report.seed}`).toBe("failed");
        expect(rule.verdict).toBe("failed");
      }
    }
  });
});
