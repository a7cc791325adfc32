import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { redactJson, redactText } from "../src/text.js";

/** The conformance kit's use: the token replaced by the shell variable its curl lines use. */
const redactToken = (text: string, token: string): string => redactText(text, [token], "$BOT_CONVERSATION_TOKEN");

describe("redactText: one rule, for the client's errors, the CLI, the MCP server and the kit's reports", () => {
  it.each([
    { rule: "a short token standing alone is hidden", token: "t", text: "<p>t</p> expected text", expected: "<p>$BOT_CONVERSATION_TOKEN</p> expected text" },
    {
      rule: "a short token inside JSON strings and words is left as it is",
      token: "t",
      text: '{"items":[],"status":"Active"}',
      expected: '{"items":[],"status":"Active"}',
    },
    {
      rule: "a short token echoed as a JSON value is hidden",
      token: "t",
      text: '{"token":"t","echo":"t"}',
      expected: '{"token":"$BOT_CONVERSATION_TOKEN","echo":"$BOT_CONVERSATION_TOKEN"}',
    },
    { rule: "a short token next to a letter, digit, _ or - is not alone", token: "t", text: "tt at t1 t_ _t t- -t", expected: "tt at t1 t_ _t t- -t" },
    {
      rule: "at the start and the end of the text it stands alone",
      token: "abc",
      text: "abc abcd abc",
      expected: "$BOT_CONVERSATION_TOKEN abcd $BOT_CONVERSATION_TOKEN",
    },
    { rule: "a 7-character token inside a word is kept", token: "1234567", text: "a1234567b", expected: "a1234567b" },
    {
      rule: "an 8-character token is hidden wherever it occurs",
      token: "12345678",
      text: "a12345678b 12345678",
      expected: "a$BOT_CONVERSATION_TOKENb $BOT_CONVERSATION_TOKEN",
    },
    {
      rule: "a long token inside words is hidden",
      token: "sandbox-token",
      text: "xsandbox-tokenx:sandbox-token",
      expected: "x$BOT_CONVERSATION_TOKENx:$BOT_CONVERSATION_TOKEN",
    },
    { rule: "text without the token is unchanged", token: "secret-1", text: "nothing here", expected: "nothing here" },
    { rule: "an empty token hides nothing", token: "", text: "text", expected: "text" },
  ])("$rule", ({ token, text, expected }) => {
    expect(redactToken(text, token)).toBe(expected);
  });
});

describe("redactJson: every string and object key at any depth, the shape kept", () => {
  /** The oracle: a walk of every string and key, as redactJson did before it skipped texts holding no token. */
  const walked = (value: unknown, tokens: string[]): unknown =>
    JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
      typeof item === "string"
        ? redactText(item, tokens)
        : item !== null && typeof item === "object" && !Array.isArray(item)
          ? Object.fromEntries(Object.entries(item).map(([key, entry]) => [redactText(key, tokens), entry]))
          : item,
    );
  // Tokens JSON writes as they are, and tokens it escapes (a quote, a backslash, a control character, a lone surrogate).
  const token = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('se"cret-token', "back\\slash-token", "tab\tbed-token", "\ud83d", "t", "sandbox-token"));

  it("gives what the walk gives, with or without a token in the value", () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 3 }), fc.jsonValue(), fc.nat(), (tokens, value, at) => {
        // Half the values hold one of the tokens somewhere: as a string, inside one, and as a key.
        const chosen = tokens[at % Math.max(tokens.length, 1)] ?? "";
        const holding = at % 2 === 0 ? [value, chosen, `x${chosen}y`, { [chosen]: chosen }] : value;
        expect(redactJson(holding, tokens)).toEqual(walked(holding, tokens));
      }),
      { numRuns: 500 },
    );
  });
});
