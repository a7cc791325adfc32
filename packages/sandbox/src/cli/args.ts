import { parseArgs } from "node:util";
import { maxConversations } from "../data/source.ts";
import type { SandboxState } from "../model.ts";
import { defaultOptions, hostNameOf, integerIn, originOf, resolveOptions, type ServerOptions } from "../options.ts";
import { parseSwitch, switchDefinitions, type SandboxSwitches } from "../switches.ts";

/** The command's own options (besides the switches) with what each does: parsed here, listed by `--help` and by shell completion. */
export const commandFlags = [
  { name: "port", value: "<port>", summary: "port on 127.0.0.1 (default 4011; 0 takes any free port; SANDBOX_PORT)" },
  { name: "host", value: "<host>", summary: "interface to listen on (default 127.0.0.1; SANDBOX_HOST)" },
  { name: "seed", value: "<text>", summary: "seed of the generated data (default bot-conversation)" },
  { name: "conversations", value: "<n>", summary: "number of conversations (default 200)" },
  { name: "state", value: "<name>", summary: "default, empty, bot-without-triggers or large (10,000 conversations)" },
  { name: "latency", value: "<ms>", summary: "wait before each answer: 200, or a seeded range 50-400" },
  { name: "fixture", value: "<file>", summary: "load this JSON fixture instead of generated data" },
  { name: "data", value: "<file>", summary: "keep the state (data source, fired events) in this file across restarts" },
  { name: "token", value: "<token>", summary: "an accepted X-Token, repeatable (default sandbox-token; SANDBOX_TOKENS)" },
  { name: "allow-origin", value: "<origin>", summary: "a web origin (https://app.example.com) whose pages may call /_sandbox/*, repeatable (loopback origins always may)" },
  { name: "allow-host", value: "<name>", summary: "a Host name to answer /_sandbox/* for, repeatable (loopback names always are)" },
  { name: "database-url", value: "<url>", summary: "keep every workspace in this PostgreSQL database, shared by replicas (DATABASE_URL)" },
  { name: "admin-token", value: "<token>", summary: "the administrator token that manages workspaces, with --database-url (SANDBOX_ADMIN_TOKEN)" },
] as const;

/** The flags that may be given more than once. */
const repeatable = new Set<string>(["token", "allow-origin", "allow-host"]);

/** Every flag of the command with its summary (switches included), as shell completion offers them. */
export function sandboxFlags(): { flag: string; summary: string }[] {
  return [
    ...commandFlags.map((definition) => ({ flag: `--${definition.name}`, summary: definition.summary })),
    ...switchDefinitions.map((definition) => ({ flag: `--${definition.flag}`, summary: `open point: ${Array.isArray(definition.values) ? definition.values.join(", ") : `a ${definition.values}`}` })),
    { flag: "--help", summary: "print the help" },
  ];
}

/**
 * Reads the command line: `--host`, `--port`, `--seed`, `--conversations`, `--fixture`, `--data`,
 * `--token` (repeatable), `--state`, `--latency` (`200` or `50-400` ms), `--database-url`, `--admin-token` and every switch (`--page-base 1`, ...);
 * then `SANDBOX_TOKENS` (comma separated), `SANDBOX_HOST`, `SANDBOX_PORT`, `DATABASE_URL` and `SANDBOX_ADMIN_TOKEN` from the environment.
 */
export function parseServerOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ServerOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      ...Object.fromEntries(commandFlags.map((definition) => [definition.name, { type: "string" as const, multiple: repeatable.has(definition.name) }])),
      ...Object.fromEntries(switchDefinitions.map((definition) => [definition.flag, { type: "string" as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
  const text = (flag: string): string | undefined => values[flag as keyof typeof values] as string | undefined;
  const texts = (flag: string): string[] | undefined => values[flag as keyof typeof values] as string[] | undefined;
  const envTokens = env["SANDBOX_TOKENS"]?.split(",").map((token) => token.trim()).filter(Boolean);
  const switches = Object.fromEntries(
    switchDefinitions.flatMap((definition) => {
      const given = text(definition.flag);
      return given === undefined ? [] : [[definition.key, parseSwitch(definition, given)]];
    }),
  ) as Partial<SandboxSwitches>;
  const conversations = text("conversations");
  const port = text("port") ?? env["SANDBOX_PORT"];
  return {
    ...resolveOptions({
      ...switches,
      seed: text("seed") ?? defaultOptions.seed,
      ...(conversations === undefined ? {} : { conversations: integerIn("--conversations", conversations, 0, maxConversations) }),
      fixture: text("fixture"),
      data: text("data"),
      state: (text("state") ?? defaultOptions.state) as SandboxState,
      latency: text("latency") === undefined ? defaultOptions.latency : parseLatency(text("latency")!),
      tokens: texts("token") ?? (envTokens && envTokens.length > 0 ? envTokens : defaultOptions.tokens),
      allowOrigins: flagList("--allow-origin", texts("allow-origin"), originOf),
      allowHosts: flagList("--allow-host", texts("allow-host"), hostNameOf),
      // --data is one user's choice: DATABASE_URL from the environment does not turn it into a shared sandbox.
      databaseUrl: text("database-url") ?? (text("data") === undefined ? env["DATABASE_URL"] || undefined : undefined),
      adminToken: text("admin-token") ?? (env["SANDBOX_ADMIN_TOKEN"] || undefined),
    }),
    host: text("host") ?? env["SANDBOX_HOST"] ?? defaultOptions.host,
    port: port === undefined ? defaultOptions.port : integerIn("--port / SANDBOX_PORT", port, 0, 65535),
  };
}

/** A repeatable flag's values, each read by `read`, or a `TypeError` naming the flag and the value. */
function flagList(flag: string, given: readonly string[] | undefined, read: (text: string) => string | undefined): string[] {
  return (given ?? []).map((text) => read(text) ?? fail(`${flag}: expected ${flag === "--allow-origin" ? "an origin such as https://app.example.com" : "a host name such as sandbox.internal"}; got ${JSON.stringify(text)}`));
}

function fail(message: string): never {
  throw new TypeError(message);
}

/** `--latency`: `200` (fixed) or `50-400` (a range drawn from the seed), in milliseconds. */
function parseLatency(text: string): ServerOptions["latency"] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!match) throw new TypeError(`--latency: expected milliseconds, e.g. 200, or a range, e.g. 50-400; got ${JSON.stringify(text)}`);
  return match[2] === undefined ? Number(match[1]) : { min: Number(match[1]), max: Number(match[2]) };
}
