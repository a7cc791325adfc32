import { describe, expect, it } from "vitest";
import { defaultMockOptions, parseMockOptions } from "../src/options.ts";
import { prismArguments } from "../src/prism.ts";

describe("parseMockOptions", () => {
  it.each([
    { argv: [], env: {}, expected: defaultMockOptions },
    { argv: ["--port", "5000", "--host", "0.0.0.0"], env: {}, expected: { ...defaultMockOptions, port: 5000, host: "0.0.0.0" } },
    { argv: [], env: { MOCK_PORT: "4999", MOCK_HOST: "localhost" }, expected: { ...defaultMockOptions, port: 4999, host: "localhost" } },
    { argv: ["--port", "5000"], env: { MOCK_PORT: "4999" }, expected: { ...defaultMockOptions, port: 5000 } },
    { argv: ["--dynamic", "--seed", "s1"], env: {}, expected: { ...defaultMockOptions, dynamic: true, seed: "s1" } },
  ])("reads $argv with $env", ({ argv, env, expected }) => {
    expect(parseMockOptions(argv, env)).toEqual(expected);
  });

  it.each(["abc", "-1", "70000", "1.5"])("rejects port %s, naming the option and the value", (port) => {
    expect(() => parseMockOptions([`--port=${port}`], {})).toThrow(`--port / MOCK_PORT must be an integer from 0 to 65535, got "${port}"`);
  });

  it("rejects unknown flags", () => {
    expect(() => parseMockOptions(["--dynamc"], {})).toThrow(/dynamc/);
  });
});

describe("prismArguments", () => {
  it("serves the examples with CORS by default", () => {
    const args = prismArguments(defaultMockOptions);
    expect(args).toEqual(expect.arrayContaining(["mock", "--host", "127.0.0.1", "--port", "4010", "--cors"]));
    expect(args).not.toContain("--dynamic");
  });

  it("passes the fixed seed in dynamic mode", () => {
    expect(prismArguments({ ...defaultMockOptions, dynamic: true }).join(" ")).toContain("--seed bot-conversation --dynamic");
  });
});
