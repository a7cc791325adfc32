import { portOf } from "@bot-conversation/client/command-line";
import { type LogFormat, logFormats, maxConversations, type SandboxState } from "../model.ts";
import { defaultOptions, hostNameOf, integerIn, originOf, referenceUrlOf, resolveOptions, type ServerOptions } from "../options.ts";
import { parseSwitch, type SandboxSwitches, switchDefinitions } from "../switches.ts";
import type { SandboxFlags } from "./flags.ts";
import { userFile, userPath } from "./user-path.ts";

/**
 * The server options of parsed flags: `--host`, `--port`, `--seed`, `--conversations`, `--fixture`,
 * `--data`, `--token` (repeatable), `--state`, `--latency` (`200` or `50-400` ms), `--database-url`,
 * `--admin-token`, `--reference-url` and every switch (`--page-base 1`, ...); then `SANDBOX_TOKENS` (comma separated),
 * `SANDBOX_HOST`, `SANDBOX_PORT`, `DATABASE_URL` (not with `--data`), `SANDBOX_ADMIN_TOKEN` and `SANDBOX_REFERENCE_URL` from the environment. A `TypeError` names the first bad flag and what it expects.
 */
export function serverOptionsOf(flags: SandboxFlags, env: NodeJS.ProcessEnv): ServerOptions {
  const text = (attribute: string): string | undefined => flags[attribute] as string | undefined;
  const texts = (attribute: string): string[] | undefined => flags[attribute] as string[] | undefined;
  const envTokens = env["SANDBOX_TOKENS"]
    ?.split(",")
    .map((token) => token.trim())
    .filter(Boolean);
  const switches = Object.fromEntries(
    switchDefinitions.flatMap((definition) => {
      const given = text(definition.key);
      return given === undefined ? [] : [[definition.key, parseSwitch(definition, given)]];
    }),
  ) as Partial<SandboxSwitches>;
  const conversations = text("conversations");
  const port = text("port") ?? env["SANDBOX_PORT"];
  const latency = text("latency");
  return {
    ...resolveOptions({
      ...switches,
      seed: text("seed") ?? defaultOptions.seed,
      ...(conversations === undefined ? {} : { conversations: integerIn("--conversations", conversations, 0, maxConversations) }),
      // The user's paths: relative to the folder the command was run in, through pnpm too.
      fixture: optional(text("fixture"), (path) => userFile("--fixture", path, env)),
      data: optional(text("data"), (path) => userPath(path, env)),
      state: (text("state") ?? defaultOptions.state) as SandboxState,
      latency: latency === undefined ? defaultOptions.latency : parseLatency(latency),
      tokens: texts("token") ?? (envTokens && envTokens.length > 0 ? envTokens : defaultOptions.tokens),
      allowOrigins: flagList("--allow-origin", texts("allowOrigin"), originOf),
      allowHosts: flagList("--allow-host", texts("allowHost"), hostNameOf),
      // --data is one user's choice: DATABASE_URL from the environment does not turn it into a shared sandbox.
      databaseUrl: text("databaseUrl") ?? (text("data") === undefined ? env["DATABASE_URL"] || undefined : undefined),
      adminToken: text("adminToken") ?? (env["SANDBOX_ADMIN_TOKEN"] || undefined),
      referenceUrl: checkedReferenceUrl(text("referenceUrl") ?? (env["SANDBOX_REFERENCE_URL"] || undefined)),
    }),
    host: text("host") ?? env["SANDBOX_HOST"] ?? defaultOptions.host,
    logFormat: parseLogFormat(text("logFormat")),
    port: port === undefined ? defaultOptions.port : portOf(port, "--port / SANDBOX_PORT"),
  };
}

/** `read(value)` when a value is given. */
const optional = <T>(value: string | undefined, read: (value: string) => T): T | undefined => (value === undefined ? undefined : read(value));

/** A repeatable flag's values, each read by `read`, or a `TypeError` naming the flag and the value. */
function flagList(flag: string, given: readonly string[] | undefined, read: (text: string) => string | undefined): string[] {
  return (given ?? []).map(
    (text) =>
      read(text) ??
      fail(
        `${flag}: expected ${flag === "--allow-origin" ? "an origin such as https://app.example.com" : "a host name such as sandbox.internal"}; got ${JSON.stringify(text)}`,
      ),
  );
}

function fail(message: string): never {
  throw new TypeError(message);
}

/** `--reference-url` (or `SANDBOX_REFERENCE_URL`): an http or https URL, named by the flag when it is not one. */
function checkedReferenceUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return (
    referenceUrlOf(text) ??
    fail(`--reference-url / SANDBOX_REFERENCE_URL: expected an http or https URL such as http://127.0.0.1:8080/; got ${JSON.stringify(text)}`)
  );
}

/** `--latency`: `200` (fixed) or `50-400` (a range drawn from the seed), in milliseconds. */
function parseLatency(text: string): ServerOptions["latency"] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!match) throw new TypeError(`--latency: expected milliseconds, e.g. 200, or a range, e.g. 50-400; got ${JSON.stringify(text)}`);
  return match[2] === undefined ? Number(match[1]) : { min: Number(match[1]), max: Number(match[2]) };
}

/** `--log-format`: `json` or `pretty`; not given, the logger picks by the output (see `createLogger`). */
function parseLogFormat(text: string | undefined): LogFormat | undefined {
  if (text === undefined || (logFormats as readonly string[]).includes(text)) return text as LogFormat | undefined;
  throw new TypeError(`--log-format: expected one of ${logFormats.join(", ")}; got ${JSON.stringify(text)}`);
}
