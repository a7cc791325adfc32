import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { defaultOptions, parseServerOptions, sandboxStates, switchDefinitions } from "../src/index.ts";

describe("the command line", () => {
  test("defaults: 127.0.0.1:4011, the token sandbox-token, 200 conversations, in memory", () => {
    expect(parseServerOptions([], {})).toEqual(defaultOptions);
    expect(defaultOptions).toMatchObject({ host: "127.0.0.1", port: 4011, tokens: ["sandbox-token"], data: undefined, fixture: undefined });
  });

  test("every option and switch is read", () => {
    const options = parseServerOptions(
      [
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--seed",
        "s",
        "--conversations",
        "7",
        "--fixture",
        "package.json",
        "--data",
        "d.db",
        "--token",
        "a",
        "--token",
        "b",
        "--latency",
        "20-80",
        "--page-base",
        "1",
        "--default-page-size",
        "5",
        "--max-page-size",
        "50",
        "--order",
        "startedOn-asc",
        "--status-case",
        "insensitive",
        "--date-to",
        "exclusive",
        "--unknown-parameters",
        "ignore",
        "--trigger-list",
        "single",
        "--identifier-wins",
        "externalConversationId",
        "--inbound-direction",
        "Incoming",
        "--error-media-type",
        "application/problem+json",
        "--allow-origin",
        "https://App.example.com:443/",
        "--allow-origin",
        "http://192.168.1.5:5173",
        "--allow-host",
        "Sandbox.Internal",
        "--log-format",
        "pretty",
        "--reference-url",
        "http://127.0.0.1:5080/",
      ],
      {},
    );
    expect(options).toEqual({
      host: "0.0.0.0",
      port: 0,
      seed: "s",
      conversations: 7,
      // The user's paths, resolved against the folder the command was run in (no INIT_CWD in this environment).
      fixture: resolve("package.json"),
      data: resolve("d.db"),
      tokens: ["a", "b"],
      state: "default",
      latency: { min: 20, max: 80 },
      pageBase: 1,
      defaultPageSize: 5,
      maxPageSize: 50,
      order: "startedOn-asc",
      statusCase: "insensitive",
      dateTo: "exclusive",
      unknownParameters: "ignore",
      triggerList: "single",
      identifierWins: "externalConversationId",
      inboundDirection: "Incoming",
      errorMediaType: "application/problem+json",
      allowOrigins: ["https://app.example.com", "http://192.168.1.5:5173"],
      allowHosts: ["sandbox.internal"],
      databaseUrl: undefined,
      adminToken: undefined,
      referenceUrl: "http://127.0.0.1:5080/",
      logFormat: "pretty",
    });
    expect(
      Object.keys(options)
        .filter(
          (key) =>
            ![
              "host",
              "port",
              "seed",
              "conversations",
              "fixture",
              "data",
              "tokens",
              "state",
              "latency",
              "allowOrigins",
              "allowHosts",
              "databaseUrl",
              "adminToken",
              "referenceUrl",
              "logFormat",
            ].includes(key),
        )
        .sort(),
    ).toEqual(switchDefinitions.map((definition) => definition.key).sort());
  });

  test("--database-url and --admin-token, or DATABASE_URL and SANDBOX_ADMIN_TOKEN (the flags win); neither is echoed when refused", () => {
    const url = "postgres://sandbox:secret@db.internal:5432/sandbox";
    expect(parseServerOptions(["--database-url", url, "--admin-token", "an-admin-token-1234"], {})).toMatchObject({
      databaseUrl: url,
      adminToken: "an-admin-token-1234",
    });
    expect(parseServerOptions([], { DATABASE_URL: url, SANDBOX_ADMIN_TOKEN: "an-admin-token-5678" })).toMatchObject({
      databaseUrl: url,
      adminToken: "an-admin-token-5678",
    });
    expect(parseServerOptions(["--admin-token", "an-admin-token-abcd"], { DATABASE_URL: url, SANDBOX_ADMIN_TOKEN: "an-admin-token-5678" }).adminToken).toBe(
      "an-admin-token-abcd",
    );
    // --data is one user's sandbox: a DATABASE_URL in the environment (another program's) is not read then.
    expect(parseServerOptions(["--data", "d.db"], { DATABASE_URL: url })).toMatchObject({ data: resolve("d.db"), databaseUrl: undefined });
    // Workspaces exist in every mode (issue 38): an administrator token needs no database.
    expect(parseServerOptions(["--admin-token", "an-admin-token-1234"], {})).toMatchObject({ adminToken: "an-admin-token-1234", databaseUrl: undefined });
    expect(() => parseServerOptions(["--admin-token", "sandbox-token"], {})).toThrow(/^adminToken: expected a text of at least 16 characters$/);
    expect(() => parseServerOptions(["--database-url", url, "--admin-token", "sandbox-token"], {})).toThrow(
      /^adminToken: expected a text of at least 16 characters$/,
    );
    expect(() => parseServerOptions(["--database-url", url, "--token", "a-shared-token-12345", "--admin-token", "a-shared-token-12345"], {})).toThrow(
      /^adminToken: must differ from every accepted token/,
    );
    expect(() => parseServerOptions(["--database-url", "http://user:hunter2@db/x"], {})).toThrow(/^databaseUrl: expected a PostgreSQL URL[\s\S]*not shown/);
    expect(() => parseServerOptions(["--database-url", "http://user:hunter2@db/x"], {})).not.toThrow(/hunter2/);
  });

  test("SANDBOX_TOKENS sets the tokens (comma separated); --token wins over it", () => {
    expect(parseServerOptions([], { SANDBOX_TOKENS: "one, two" }).tokens).toEqual(["one", "two"]);
    expect(parseServerOptions(["--token", "three"], { SANDBOX_TOKENS: "one" }).tokens).toEqual(["three"]);
    expect(parseServerOptions([], { SANDBOX_PORT: "5000", SANDBOX_HOST: "::1" })).toMatchObject({ port: 5000, host: "::1" });
  });

  test.each([
    [["--port", "70000"], /--port \/ SANDBOX_PORT: expected an integer from 0 to 65535; got "70000"/],
    [["--conversations", "many"], /--conversations: expected an integer from 0 to 1000000; got "many"/],
    [["--page-base", "2"], /--page-base: expected one of 0, 1; got "2"/],
    [["--max-page-size", "0"], /--max-page-size: expected a positive integer or "none"; got "0"/],
    [["--inbound-direction", ""], /--inbound-direction: expected a non-empty text/],
    [["--colour", "red"], /^unknown option '--colour'$/],
    [["--port"], /^option '--port <port>' argument missing$/],
    [
      ["--allow-origin", "https://app.example.com/path"],
      /--allow-origin: expected an origin such as https:\/\/app.example.com; got "https:\/\/app.example.com\/path"/,
    ],
    [["--allow-origin", "*"], /--allow-origin: expected an origin/],
    [["--allow-host", "a b"], /--allow-host: expected a host name such as sandbox.internal; got "a b"/],
  ])("%j is refused, naming the option", (argv, message) => {
    expect(() => parseServerOptions(argv, {})).toThrow(message);
  });
});

test("the command skips the `--` that `pnpm start -- --port 4021` passes on, and --help lists every switch with an example", async () => {
  const { runSandboxCommand, sandboxUsage } = await import("../src/index.ts");
  let printed = "";
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stdout.write;
  try {
    expect(await runSandboxCommand(["--", "--help"], {})).toBe(0);
  } finally {
    process.stdout.write = write;
  }
  expect(printed).toBe(sandboxUsage());
  // Every switch, with its values where they are a list (the sandbox's own: `switchDefinitions`), and the states.
  const flat = printed.replace(/\s+/g, " ");
  const entry = (flag: string) => flat.slice(flat.indexOf(` --${flag} `) + 1).split(/ (?=--[a-z])/)[0] ?? "";
  for (const definition of switchDefinitions) {
    expect(entry(definition.flag)).toContain("open point:");
    if (Array.isArray(definition.values))
      expect(entry(definition.flag)).toContain(`(choices: ${definition.values.map((value) => JSON.stringify(value)).join(", ")})`);
  }
  expect(entry("state")).toContain(`(choices: ${sandboxStates.map((state) => JSON.stringify(state)).join(", ")})`);
  expect(printed).toContain("Example:");
  expect(parseServerOptions(["--port", "4021"], {}).port).toBe(4021);
});
