import { parseArgs } from "node:util";
import type { Fixture } from "./fixture.ts";
import { checkSwitches, defaultSwitches, parseSwitch, switchDefinitions, type SandboxSwitches } from "./switches.ts";

/** What the sandbox serves and how: the data, the accepted tokens, and the open-point switches. */
export interface SandboxOptions extends SandboxSwitches {
  /** Seed of the generated data: the same seed and count give the same data. */
  readonly seed: string;
  /** Number of conversations to generate. */
  readonly conversations: number;
  /** A fixture to load instead of generated data: the object, or the path of a JSON file. */
  readonly fixture: Fixture | string | undefined;
  /** Path of a database file that keeps the state across restarts; `undefined` keeps it in memory. */
  readonly data: string | undefined;
  /** The `X-Token` values accepted; anything else is a 401. */
  readonly tokens: readonly string[];
}

/** Where the command-line server listens, besides the sandbox options. */
export interface ServerOptions extends SandboxOptions {
  /** Interface to listen on. */
  readonly host: string;
  /** TCP port to listen on; 0 for any free port. */
  readonly port: number;
}

/** The defaults of every option. */
export const defaultOptions: ServerOptions = {
  ...defaultSwitches,
  host: "127.0.0.1",
  port: 4011,
  seed: "bot-conversation",
  conversations: 200,
  fixture: undefined,
  data: undefined,
  tokens: ["sandbox-token"],
};

/** The largest number of conversations the generator accepts. */
export const maxConversations = 1_000_000;

const integerIn = (name: string, text: string, min: number, max: number): number => {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new TypeError(`${name}: expected an integer from ${min} to ${max}; got ${JSON.stringify(text)}`);
  }
  return Number(text);
};

/** Completes and checks options given in process; errors name the option and what was expected. */
export function resolveOptions(given: Partial<SandboxOptions> = {}): SandboxOptions {
  // A misspelt option would otherwise be dropped without a word.
  const known = Object.keys(defaultOptions).filter((key) => key !== "host" && key !== "port");
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) throw new TypeError(`${key}: not an option of the sandbox; expected one of ${known.join(", ")}`);
  }
  const options = { ...defaultOptions, ...withoutUndefined(given), ...checkSwitches(withoutUndefined(given)) };
  if (typeof options.seed !== "string") throw new TypeError(`seed: expected a string; got ${typeof options.seed}`);
  integerIn("conversations", String(options.conversations), 0, maxConversations);
  if (!Array.isArray(options.tokens) || options.tokens.length === 0 || options.tokens.some((token) => typeof token !== "string" || token === "")) {
    throw new TypeError("tokens: expected a non-empty list of non-empty strings");
  }
  return options;
}

function withoutUndefined<T extends object>(given: T): Partial<T> {
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * Reads the command line: `--host`, `--port`, `--seed`, `--conversations`, `--fixture`, `--data`,
 * `--token` (repeatable) and every switch (`--page-base 1`, ...); then `SANDBOX_TOKENS` (comma
 * separated), `SANDBOX_HOST` and `SANDBOX_PORT` from the environment.
 */
export function parseServerOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ServerOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      host: { type: "string" },
      port: { type: "string" },
      seed: { type: "string" },
      conversations: { type: "string" },
      fixture: { type: "string" },
      data: { type: "string" },
      token: { type: "string", multiple: true },
      ...Object.fromEntries(switchDefinitions.map((definition) => [definition.flag, { type: "string" as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
  const text = (flag: string): string | undefined => values[flag as keyof typeof values] as string | undefined;
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
      conversations: conversations === undefined ? defaultOptions.conversations : integerIn("--conversations", conversations, 0, maxConversations),
      fixture: text("fixture"),
      data: text("data"),
      tokens: values.token ?? (envTokens && envTokens.length > 0 ? envTokens : defaultOptions.tokens),
    }),
    host: text("host") ?? env["SANDBOX_HOST"] ?? defaultOptions.host,
    port: port === undefined ? defaultOptions.port : integerIn("--port / SANDBOX_PORT", port, 0, 65535),
  };
}
