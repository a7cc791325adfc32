import { parseArgs } from "node:util";
import { defaultOptions, integerIn, maxConversations, resolveOptions, type SandboxState, type ServerOptions } from "./options.ts";
import { parseSwitch, switchDefinitions, type SandboxSwitches } from "./switches.ts";

/**
 * Reads the command line: `--host`, `--port`, `--seed`, `--conversations`, `--fixture`, `--data`,
 * `--token` (repeatable), `--state`, `--latency` (`200` or `50-400` ms) and every switch (`--page-base 1`, ...); then `SANDBOX_TOKENS` (comma
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
      state: { type: "string" },
      latency: { type: "string" },
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
      ...(conversations === undefined ? {} : { conversations: integerIn("--conversations", conversations, 0, maxConversations) }),
      fixture: text("fixture"),
      data: text("data"),
      state: (text("state") ?? defaultOptions.state) as SandboxState,
      latency: text("latency") === undefined ? defaultOptions.latency : parseLatency(text("latency")!),
      tokens: values.token ?? (envTokens && envTokens.length > 0 ? envTokens : defaultOptions.tokens),
    }),
    host: text("host") ?? env["SANDBOX_HOST"] ?? defaultOptions.host,
    port: port === undefined ? defaultOptions.port : integerIn("--port / SANDBOX_PORT", port, 0, 65535),
  };
}

/** `--latency`: `200` (fixed) or `50-400` (a range drawn from the seed), in milliseconds. */
function parseLatency(text: string): ServerOptions["latency"] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!match) throw new TypeError(`--latency: expected milliseconds, e.g. 200, or a range, e.g. 50-400; got ${JSON.stringify(text)}`);
  return match[2] === undefined ? Number(match[1]) : { min: Number(match[1]), max: Number(match[2]) };
}
