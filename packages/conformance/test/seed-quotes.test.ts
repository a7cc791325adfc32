import { describe, expect, it } from "vitest";
import { checkNames } from "../src/checks/index.ts";
import { bundledDescription } from "../src/description.ts";
import { fieldsOf, probeFamilies, seedRulesOf } from "../src/families.ts";

describe("a failure names the seed's words it breaks (issue 48, item 5)", () => {
  it("every check a probe family feeds quotes at least one rule of the seed, at most five", () => {
    for (const check of checkNames) {
      const fed = probeFamilies.some((family) => family.checks.includes(check));
      const quotes = seedRulesOf(check, undefined, []);
      if (fed) expect(quotes.length, check).toBeGreaterThan(0);
      else expect(quotes, check).toEqual([]);
      expect(quotes.length).toBeLessThanOrEqual(5);
    }
  });

  it("of many rules, those whose field a problem's pointer names: a schema failure at startedOn quotes the startedOn rule", () => {
    // The problems as response_schema_conformance finds them (problemsAt: each one's pointer and keyword).
    const problem = bundledDescription()
      .problemsAt("#/components/schemas/ConversationPage", { items: [{ startedOn: 1763630102000 }] })
      .find((each) => each.pointer === "/items/0/startedOn");
    expect(problem?.keyword).toBe("type");
    const quotes = seedRulesOf("response_schema_conformance", undefined, [problem!.pointer]);
    expect(quotes[0]?.id).toBe("summary-started-on");
    expect(quotes.every((quote) => /^(startedOn|items):/.test(quote.text))).toBe(true);
  });

  it("the pointer, not the words: an unlisted property in channelData quotes the channelData rules, not the properties its words list", () => {
    const problem = bundledDescription()
      .problemsAt("#/components/schemas/ConversationExport", { channelData: { platform: {}, originalChannelId: "directline", conformanceUnlisted: 1 } })
      .find((each) => each.pointer === "/channelData/conformanceUnlisted");
    // The words name every property ChannelData lists; the field named last is originalChannelId.
    expect(problem?.text).toBe("/channelData/conformanceUnlisted: expected only the properties platform, originalChannelId here; got this one");
    expect(problem?.keyword).toBe("additionalProperties");
    const quotes = seedRulesOf("response_schema_conformance", undefined, [problem!.pointer]);
    expect(quotes.map((quote) => quote.id)).toEqual(["summary-channel-data", "export-channel-data"]);
  });

  it("the owner of the field ranks first: a problem at a member's id quotes the Member's rule, not the summary's", () => {
    const problem = bundledDescription()
      .problemsAt("#/components/schemas/ConversationPage", {
        items: [
          {
            members: [
              { id: "bot", name: null, role: "Bot" },
              { id: 7, name: null, role: "User" },
            ],
          },
        ],
      })
      .find((each) => each.pointer === "/items/0/members/1/id");
    expect(problem?.keyword).toBe("type");
    const quotes = seedRulesOf("response_schema_conformance", undefined, [problem!.pointer]);
    expect(quotes[0]?.id).toBe("member-id");
    // The summary's own id is about another object: it comes after the member's, never first.
    expect(quotes.map((quote) => quote.id).indexOf("summary-id")).not.toBe(0);
  });

  it("fieldsOf reads a pointer's field names, the deepest first, indexes dropped and ~1 read back", () => {
    expect(fieldsOf("/items/0/startedOn")).toEqual(["startedOn", "items"]);
    expect(fieldsOf("/a~1b/0")).toEqual(["a/b"]);
    expect(fieldsOf("/")).toEqual([]);
  });

  it("a tagged probe quotes its own family's rules only", () => {
    const quotes = seedRulesOf("payload_validation_rejection", "variable-near-misses", []);
    expect(quotes.length).toBeGreaterThan(0);
    expect(quotes.map((quote) => quote.id)).toContain("variable-date-time");
  });
});
