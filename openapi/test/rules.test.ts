import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readRules, rulesModule } from "../scripts/rules.ts";
import { rules } from "../src/index.ts";

const yaml = readFileSync(new URL("../rules.yaml", import.meta.url), "utf8");

describe("rules.yaml: every rule the service states, the seed's side alone", () => {
  it("the generated module agrees with it (pnpm --filter @bot-conversation/openapi decisions writes it)", () => {
    expect(readFileSync(new URL("../src/rules.generated.ts", import.meta.url), "utf8")).toBe(rulesModule(readRules(yaml)));
  });

  it("both Rule: lines of the seed and each status of its Errors table are rules, each with where the seed states it and its words", () => {
    const ids = rules.map((rule) => rule.id);
    for (const id of ["fire-rule-not-found", "fire-rule-validation", "auth-401", "auth-only-method"]) expect(ids).toContain(id);
    expect(rules.filter((rule) => rule.seed.startsWith("Errors > ")).map((rule) => rule.seed)).toHaveLength(8);
    // The families that test each rule are the conformance kit's (its catalog test holds every rule tested).
    for (const rule of rules) expect(Object.keys(rule).sort(), rule.id).toEqual(["id", "seed", "text"]);
  });

  it("refuses an id used twice, a missing text, and a family or any other field (the kit's, beside its check), naming the entry", () => {
    expect(() => readRules("rules:\n  - {id: r, seed: S, text: T}\n  - {id: r, seed: S, text: T}\n")).toThrow('rules.yaml rule 2 (r): id "r" is used twice');
    expect(() => readRules("rules:\n  - {id: r, text: T}\n")).toThrow("rules.yaml rule 1 (r): seed: expected a text");
    expect(() => readRules("rules:\n  - {id: r, seed: S, text: T, families: [a-family]}\n")).toThrow(
      "rules.yaml rule 1 (r): expected only id, seed, text; got families",
    );
    expect(() => readRules("families:\n  - {name: a-family}\nrules:\n  - {id: r, seed: S, text: T}\n")).toThrow(
      "rules.yaml: expected only rules; got families",
    );
  });
});
