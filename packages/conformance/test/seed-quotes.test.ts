import { probeFamilies } from "@bot-conversation/openapi";
import { describe, expect, it } from "vitest";
import { checkNames } from "../src/checks/index.ts";
import { bundledDescription } from "../src/description.ts";
import { pointersOf, seedRulesOf } from "../src/families.ts";

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

  it("of many rules, those whose field the message's pointer names: a schema failure at startedOn quotes the startedOn rule", () => {
    // The one wording of a schema error, as response_schema_conformance words it (problemsOf: schemaProblem).
    const pointer = "#/components/schemas/ConversationPage";
    const problem = bundledDescription()
      .problemsOf(pointer, { items: [{ startedOn: 1763630102000 }] })
      .find((each) => each.startsWith("/items/0/startedOn: "));
    expect(problem).toMatch(/^\/items\/0\/startedOn: expected .*; got a number$/);
    const quotes = seedRulesOf("response_schema_conformance", undefined, `expected a body valid against ${pointer}; got: ${problem}`);
    expect(quotes[0]?.id).toBe("summary-started-on");
    expect(quotes.every((quote) => /^(startedOn|items):/.test(quote.text))).toBe(true);
  });

  it("the pointer, not the words: an unlisted property in channelData quotes the channelData rules, not the properties its words list", () => {
    const pointer = "#/components/schemas/ConversationExport";
    const problem = bundledDescription()
      .problemsOf(pointer, { channelData: { platform: {}, originalChannelId: "directline", conformanceUnlisted: 1 } })
      .find((each) => each.startsWith("/channelData/conformanceUnlisted: "));
    // The words name every property ChannelData lists; the field named last is originalChannelId.
    expect(problem).toBe("/channelData/conformanceUnlisted: expected only the properties platform, originalChannelId here; got this one");
    const quotes = seedRulesOf("response_schema_conformance", undefined, `expected a body valid against ${pointer}; got: ${problem}`);
    expect(quotes.map((quote) => quote.id)).toEqual(["summary-channel-data", "export-channel-data"]);
  });

  it("the owner of the field ranks first: a problem at a member's id quotes the Member's rule, not the summary's", () => {
    const pointer = "#/components/schemas/ConversationPage";
    const problem = bundledDescription()
      .problemsOf(pointer, {
        items: [
          {
            members: [
              { id: "bot", name: null, role: "Bot" },
              { id: 7, name: null, role: "User" },
            ],
          },
        ],
      })
      .find((each) => each.startsWith("/items/0/members/1/id: "));
    expect(problem).toMatch(/^\/items\/0\/members\/1\/id: expected .*; got a number$/);
    const quotes = seedRulesOf("response_schema_conformance", undefined, `expected a body valid against ${pointer}; got: ${problem}`);
    expect(quotes[0]?.id).toBe("member-id");
    // The summary's own id is about another object: it comes after the member's, never first.
    expect(quotes.map((quote) => quote.id).indexOf("summary-id")).not.toBe(0);
  });

  it("pointersOf reads every pointer of a message, the deepest field first, indexes dropped and ~1 read back", () => {
    expect(
      pointersOf("expected a body valid against #/x; got: /items/0/startedOn: expected a; got b; /a~1b/0: expected c; got d; /: expected e; got f"),
    ).toEqual([["startedOn", "items"], ["a/b"], []]);
    expect(pointersOf("expected 500 for deliveryDate (DateTime) = 1; got 200")).toEqual([]);
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
