/**
 * The one catalog (issue 48, item 7): each check's module exports its entry (`checkCatalog` assembles them), where
 * the check's phases, relations and probe families are written, each family with the seed's rules it tests and its
 * words; the phases' lists of checks, the tagged families and the per-rule table are read from it, and the seed's
 * rules (`rules.yaml`, the seed's side alone) are each tested by a family of the catalog.
 */
import { rules } from "@bot-conversation/openapi";
import { variableTypes } from "@bot-conversation/types";
import { describe, expect, it } from "vitest";
import { catalogEntry, catalogFamilies, catalogGenerators, catalogRelations, checkNames, checkOfRelation } from "../src/checks/index.ts";
import { consistencyRelations } from "../src/consistency.ts";
import { familiesOfRule, taggedFamilies } from "../src/families.ts";
import { phases } from "../src/phases/index.ts";
import { pageSizeRelation, relations } from "../src/relations.ts";
import { variableTypeTable } from "../src/variable-values.ts";

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

  it("each family is declared once, under a name of its own, and feeds exactly the checks whose entries name it", () => {
    const declared = new Set(checkNames.flatMap((name) => catalogEntry(name).families));
    expect(catalogFamilies.length).toBe(declared.size);
    expect(new Set(catalogFamilies.map((family) => family.name)).size).toBe(declared.size);
    for (const family of catalogFamilies) {
      expect(family.name, family.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(family.probes, family.name).not.toBe("");
      const naming = checkNames.filter((name) => catalogEntry(name).families.some((each) => each.name === family.name));
      expect(family.checks, family.name).toEqual(naming);
    }
    // Tagged families are judged on their own probes; a family judged on part of its check's failures is not tagged.
    expect(new Set(catalogFamilies.filter((family) => family.tagged).map((family) => family.name))).toEqual(taggedFamilies);
    expect(taggedFamilies.has("credential-near-misses")).toBe(true);
    for (const family of catalogFamilies) if (family.judgedOn) expect(family.tagged, family.name).toBeUndefined();
  });

  it("every rule of rules.yaml is tested by a family of the catalog, every rule a family names is one, and every family names one", () => {
    const ids = new Set<string>(rules.map((rule) => rule.id));
    expect(rules.filter((rule) => familiesOfRule(rule.id).length === 0).map((rule) => rule.id)).toEqual([]);
    for (const family of catalogFamilies) {
      expect(family.rules.length, family.name).toBeGreaterThan(0);
      for (const id of family.rules) expect(ids.has(id), `${family.name} names ${id}`).toBe(true);
    }
    // rules.yaml holds the seed's side alone: no family, no check.
    for (const rule of rules) expect(Object.keys(rule).sort()).toEqual(["id", "seed", "text"]);
  });

  it("the generators are the catalog's: each named by its families, for one of their rules, and every variable type's row one of them, for its own rule", () => {
    for (const family of catalogFamilies)
      for (const generator of family.generators ?? []) expect(family.rules as readonly string[], family.name).toContain(generator.rule);
    expect(catalogGenerators.length).toBeGreaterThan(0);
    for (const type of variableTypes) {
      const row = variableTypeTable[type];
      expect(catalogGenerators, type).toContain(row);
      // The rule it generates for is the seed's row of that type (Resources > Variable types > DateTime).
      expect(rules.find((rule) => rule.id === row.rule)?.seed, type).toBe(`Resources > Variable types > ${type}`);
    }
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
