import { describe, expect, test } from "vitest";
import { tokenAccepted } from "../src/http/token.ts";

describe("the sandbox's one token comparison", () => {
  test.each([
    ["sandbox-token", ["sandbox-token"], true],
    ["sandbox-token", ["other", "sandbox-token"], true],
    ["sandbox-toke", ["sandbox-token"], false],
    ["sandbox-tokenn", ["sandbox-token"], false],
    ["Sandbox-token", ["sandbox-token"], false],
    ["", ["", "sandbox-token"], false],
    [undefined, ["sandbox-token"], false],
    [null, ["sandbox-token"], false],
    ["sandbox-token", [], false],
    ["t\u0000", ["t"], false],
  ] as const)("%j among %j: %s", (given, accepted, expected) => {
    expect(tokenAccepted(given, accepted)).toBe(expected);
  });
});
