import { describe, expect, test } from "vitest";
import { redactJson, redactText, sanitizeText, tokenFromFile, truncateText } from "../src/text.js";

describe("sanitizeText: every control, DEL, line separator and bidi control shown as a visible escape", () => {
  test("C0, DEL, C1, bidi overrides and isolates, line and paragraph separators", () => {
    expect(sanitizeText("a\u001b[2Jb")).toBe("a\\x1b[2Jb");
    expect(sanitizeText("\u001b]52;c;ZWNobw==\u0007")).toBe("\\x1b]52;c;ZWNobw==\\x07");
    expect(sanitizeText("x\r\n\ty\u0000\u007f\u009b31m")).toBe("x\\r\\n\\ty\\x00\\x7f\\x9b31m");
    expect(sanitizeText("\u202eevil\u2066\u2069\u200e\u200f\u061c\u2028\u2029")).toBe("\\u202eevil\\u2066\\u2069\\u200e\\u200f\\u061c\\u2028\\u2029");
  });

  test("everything else is kept as it is: accents, CJK, emoji, a backslash", () => {
    const text = "Grüße 你好 👋🏽 C:\\path ~!@#";
    expect(sanitizeText(text)).toBe(text);
  });
});

describe("truncateText: cut by characters, never inside a surrogate pair or an escape", () => {
  test("short text is only sanitized; long text is cut with an ellipsis to the exact length", () => {
    expect(truncateText("abc", 3)).toBe("abc");
    expect(truncateText("abcdef", 4)).toBe("abc…");
    expect([...truncateText("x".repeat(10_000_000), 48)]).toHaveLength(48);
  });

  test("an emoji (a surrogate pair) is one character, kept whole or dropped whole", () => {
    expect(truncateText("👋👋👋👋", 3)).toBe("👋👋…");
    expect(truncateText("a👋", 2)).toBe("a👋");
    for (let max = 1; max < 12; max++)
      expect(truncateText("ab👋cd👋👋ef", max)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  test("an escape is never cut: a cut that would fall inside `\\x1b` drops all of it", () => {
    // "ab" + "\x1b" (4 characters) + "[2J": cutting at 4 leaves room for "ab" + "…" only.
    expect(truncateText("ab\u001b[2Jcdef", 4)).toBe("ab…");
    for (let max = 1; max < 20; max++) expect(truncateText("ab\u001b[2J\u001b]0;t\u0007cd", max)).not.toMatch(/\\(x[0-9a-f]?)?…$/);
    expect(truncateText("ab\u001b[2Jcdef", 7)).toBe("ab\\x1b…");
  });

  test("maxCharacters is a whole number of at least 1", () => {
    expect(() => truncateText("a", 0)).toThrow(new TypeError("maxCharacters: expected a whole number of at least 1; got 0"));
  });
});

describe("redactText and redactJson: the one redactor", () => {
  test("a replacement of the caller's choice; an empty token hides nothing", () => {
    expect(redactText("token tok-SECRET-123 here", ["tok-SECRET-123"])).toBe("token [redacted] here");
    expect(redactText("token tok-SECRET-123 here", ["tok-SECRET-123"], "$BOT_CONVERSATION_TOKEN")).toBe("token $BOT_CONVERSATION_TOKEN here");
    expect(redactText("abc", [""])).toBe("abc");
    expect(redactJson({ ["k-tok-SECRET-123"]: ["tok-SECRET-123"] }, ["tok-SECRET-123"], "T")).toEqual({ "k-T": ["T"] });
  });
});

describe("tokenFromFile: one rule for --token-file", () => {
  test("the whole file, trimmed: a trailing line break is fine", () => {
    expect(tokenFromFile("  tok-SECRET-123\r\n", "--token-file t")).toBe("tok-SECRET-123");
  });

  test("an empty file or a second line is refused, naming the source and never quoting the text", () => {
    expect(() => tokenFromFile(" \n", "--token-file t")).toThrow(
      new TypeError("--token-file t: the file is empty; expected one line holding the access token"),
    );
    expect(() => tokenFromFile("tok-SECRET-123\nsecond", "--token-file t")).toThrow(
      new TypeError("--token-file t: the file holds 2 lines; expected one line holding the access token (nothing else)"),
    );
  });
});
