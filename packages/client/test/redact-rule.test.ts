import { describe, expect, it } from "vitest";
import { redactText } from "../src/text.js";

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
