import { probeFamilies } from "@bot-conversation/openapi";
import { describe, expect, it } from "vitest";
import { checkNames } from "../src/checks/index.ts";
import { seedRulesOf } from "../src/families.ts";

describe("a failure names the seed's words it breaks (issue 48, item 5)", () => {
  it("every check a probe family feeds quotes at least one rule of the seed, at most five", () => {
    for (const check of checkNames) {
      const fed = probeFamilies.some((family) => (family.checks as readonly string[]).includes(check));
      const quotes = seedRulesOf(check, undefined, "expected something; got another");
      if (fed) expect(quotes.length, check).toBeGreaterThan(0);
      else expect(quotes, check).toEqual([]);
      expect(quotes.length).toBeLessThanOrEqual(5);
    }
  });

  it("of many rules, those whose field the message names: a schema failure at startedOn quotes the startedOn rule", () => {
    const quotes = seedRulesOf(
      "response_schema_conformance",
      undefined,
      "expected a body valid against the description; /items/0/startedOn: must match format date-time",
    );
    expect(quotes[0]?.id).toBe("summary-started-on");
    expect(quotes.every((quote) => /^(startedOn|items):/.test(quote.text))).toBe(true);
  });

  it("a tagged probe quotes its own family's rules only", () => {
    const quotes = seedRulesOf(
      "payload_validation_rejection",
      "variable-near-misses",
      "expected 500 for deliveryDate (DateTime) = 1763630102000 (an epoch integer); got 200",
    );
    expect(quotes.length).toBeGreaterThan(0);
    expect(quotes.map((quote) => quote.id)).toContain("variable-date-time");
  });
});
