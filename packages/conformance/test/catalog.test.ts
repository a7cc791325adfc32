/**
 * The one catalog (issue 48, item 7): the checks' table (`checkCatalog`) is where each check's phases, relations and
 * tagged families are written; the phases' lists of checks and the tagged families are read from it, and the seed's
 * rules (`rules.yaml`) are each claimed by a check through a family that tests them.
 */
import { probeFamilies, rules } from "@bot-conversation/openapi";
import { describe, expect, it } from "vitest";
import { catalogEntry, catalogRelations, checkNames, checkOfRelation } from "../src/checks/index.ts";
import { consistencyRelations } from "../src/consistency.ts";
import { taggedFamilies } from "../src/families.ts";
import { phases } from "../src/phases/index.ts";
import { pageSizeRelation, relations } from "../src/relations.ts";

const familyByName = new Map(probeFamilies.map((family) => [family.name as string, family]));

describe("the one catalog", () => {
  it("each phase feeds exactly the checks whose entry names it, and every phase an entry names runs", () => {
    const names = new Set(phases.map((phase) => phase.name));
    for (const name of checkNames) {
      for (const phase of catalogEntry(name).phases) {
        expect(names.has(phase), `${name} names "${phase}"`).toBe(true);
        expect(phases.find((each) => each.name === phase)!.checks).toContain(name);
      }
    }
    for (const phase of phases) for (const name of phase.checks) expect(catalogEntry(name).phases, `${phase.name} feeds ${name}`).toContain(phase.name);
    // A check no phase feeds is one the session applies to every response or every page.
    for (const name of checkNames) if (catalogEntry(name).phases.length === 0) expect(catalogEntry(name).onEvery, name).toBeDefined();
  });

  it("the tagged families are the entries' tagged, each a family of rules.yaml that feeds the check listing it", () => {
    const listed = checkNames.flatMap((name) => (catalogEntry(name).tagged ?? []).map((family) => ({ name, family })));
    expect(new Set(listed.map(({ family }) => family))).toEqual(taggedFamilies);
    expect(taggedFamilies.has("credential-near-misses")).toBe(true);
    for (const { name, family } of listed) expect(familyByName.get(family)?.checks, `${name} tags ${family}`).toContain(name);
    for (const name of checkNames)
      for (const family of Object.keys(catalogEntry(name).judgedOn ?? {})) {
        expect(familyByName.get(family)?.checks, `${name} judges ${family}`).toContain(name);
        expect(taggedFamilies.has(family as never)).toBe(false);
      }
  });

  it("every rule of rules.yaml is claimed by a check through a family, and every family a rule names exists", () => {
    const unclaimed = rules.filter(
      (rule) => !rule.families.some((family) => (familyByName.get(family)?.checks ?? []).some((check) => (checkNames as string[]).includes(check))),
    );
    expect(unclaimed.map((rule) => rule.id)).toEqual([]);
    for (const rule of rules) for (const family of rule.families) expect(familyByName.has(family), `${rule.id} names ${family}`).toBe(true);
    // And every family tests a rule: none that no rule names.
    const named = new Set(rules.flatMap((rule) => rule.families as readonly string[]));
    expect(probeFamilies.filter((family) => !named.has(family.name)).map((family) => family.name)).toEqual([]);
  });

  it("every relation is listed once, under the check its failures are failures of", () => {
    const names = catalogRelations.map((relation) => relation.name);
    expect(new Set(names).size).toBe(names.length);
    for (const relation of [...relations, pageSizeRelation]) expect(checkOfRelation(relation.name)).toBe("metamorphic_relations");
    for (const relation of Object.values(consistencyRelations)) expect(checkOfRelation(relation.name)).toBe("operation_consistency");
    expect(names.length).toBe(relations.length + 1 + Object.keys(consistencyRelations).length);
    expect(() => checkOfRelation("no_such_relation")).toThrow("no check lists the relation no_such_relation");
  });
});
