import { describe, expect, it } from "vitest";
import { defaultMockOptions, parseMockOptions } from "../src/options.ts";
import { listeningPort, prismArguments } from "../src/prism.ts";

describe("parseMockOptions", () => {
  it.each([
    { argv: [], env: {}, expected: defaultMockOptions },
    { argv: ["--port", "5000", "--host", "0.0.0.0"], env: {}, expected: { ...defaultMockOptions, port: 5000, host: "0.0.0.0" } },
    { argv: [], env: { MOCK_PORT: "4999", MOCK_HOST: "localhost" }, expected: { ...defaultMockOptions, port: 4999, host: "localhost" } },
    { argv: ["--port", "5000"], env: { MOCK_PORT: "4999" }, expected: { ...defaultMockOptions, port: 5000 } },
    { argv: ["--port", "0"], env: {}, expected: { ...defaultMockOptions, port: 0 } },
    // `pnpm --filter @bot-conversation/mock start -- --port 4021` passes the `--` on.
    { argv: ["--", "--port", "4021"], env: {}, expected: { ...defaultMockOptions, port: 4021 } },
    { argv: ["--dynamic", "--seed", "s1"], env: {}, expected: { ...defaultMockOptions, dynamic: true, seed: "s1" } },
  ])("reads $argv with $env", ({ argv, env, expected }) => {
    expect(parseMockOptions(argv, env)).toEqual(expected);
  });

  // "1e3" and "0x10" are numbers to Number() but not ports as written: refused, not coerced.
  it.each(["abc", "-1", "70000", "1.5", "1e3", "0x10", ""])("rejects port %j, naming the option and the value", (port) => {
    expect(() => parseMockOptions([`--port=${port}`], {})).toThrow(`--port / MOCK_PORT: expected an integer from 0 to 65535; got "${port}"`);
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

describe("listeningPort", () => {
  it.each([
    { line: "[3:25:52 PM] › [CLI] ▶  start     Prism is listening on http://127.0.0.1:41961", port: 41961 },
    { line: "\u001b[32m▶  start\u001b[39m     Prism is listening on http://127.0.0.1:4010\u001b[39m", port: 4010 },
    { line: "Prism is listening on http://::1:4020", port: 4020 },
    { line: "[CLI] ℹ  info      GET        http://127.0.0.1:41961/api/v2/channels/conversations", port: undefined },
  ])("reads $port from $line", ({ line, port }) => {
    expect(listeningPort(line)).toBe(port);
  });
});
