import { defaultMaxResponseBytes } from "@bot-conversation/client";
import { UsageError } from "@bot-conversation/client/command-line";
import { describeValue, wrongValueText } from "@bot-conversation/client/text";
import type { Baseline } from "./baseline.ts";
import { type CheckName, checkNames, isCheckName } from "./checks/index.ts";
import type { AcceptedDecisions } from "./decisions.ts";

/** Options of a conformance run; only `baseUrl` and `token` are required. */
export interface ConformanceOptions {
  /** Base address of the server, e.g. `https://bots.example.com` or `http://127.0.0.1:4011`. */
  readonly baseUrl: string;
  /** Access token sent in `X-Token`; never printed (reproductions write `$BOT_CONVERSATION_TOKEN`). */
  readonly token: string;
  /** Seed of the generators; the same seed sends the same requests. Random when omitted (and reported). */
  readonly seed?: number;
  /** Generated requests per property (per operation, valid and invalid). Default 50. */
  readonly examples?: number;
  /** Allow the fire operation (POST): it has side effects on a real service. Default false. */
  readonly allowFire?: boolean;
  /** Bot whose triggers are listed and fired; without it, trigger-dependent checks are skipped. */
  readonly agentStageId?: string;
  /** Conversation to fire into (needed with `allowFire`, or `externalConversationId`). */
  readonly conversationId?: string;
  /** Conversation to fire into, by its external identifier (`<SESSION_ID>|livechat`). */
  readonly externalConversationId?: string;
  /** A route that returns a conversation as the export model, with `{conversationId}` in it; none by default. */
  readonly exportPath?: string;
  /** At most this many requests in the whole run. Default 2000. */
  readonly maxRequests?: number;
  /** At most this many requests per second; 0 for no limit. Default 50. */
  readonly rate?: number;
  /** Time-out of one request in milliseconds. Default 10000 (as Schemathesis). */
  readonly timeoutMs?: number;
  /** Largest response body read, in bytes; default 16 MiB (the client's `defaultMaxResponseBytes`). A larger body is not read further: the request counts as unanswered. */
  readonly maxResponseBytes?: number;
  /** Turns on `max_response_time`: every response must arrive within this many milliseconds. */
  readonly maxResponseTimeMs?: number;
  /** Bounds the whole run: it stops after this many milliseconds and reports what ran. */
  readonly maxTimeMs?: number;
  /** Stops the run after this many failures and reports what ran. */
  readonly maxFailures?: number;
  /** Runs only these checks (by name); every other is reported as not run. */
  readonly checks?: readonly string[];
  /** Leaves these checks out (by name). */
  readonly excludeChecks?: readonly string[];
  /** The open-point decisions the team accepts for its server. */
  readonly decisions?: AcceptedDecisions;
  /** Known failures and accepted findings (`--baseline`): they do not fail the run. */
  readonly baseline?: Baseline;
  /** Extra request headers, by name (a gateway's key, a tenant); `X-Token` is the token's own. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Stops the run; the report covers what ran. */
  readonly signal?: AbortSignal;
  /** The fetch to send with: an in-process server's `fetch` works too. Default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Called after every response, for a progress display. */
  readonly onProgress?: (progress: Progress) => void;
}

/** Where a run stands. */
export interface Progress {
  /** Requests sent so far. */
  readonly requests: number;
  /** The request budget. */
  readonly maxRequests: number;
  /** The phase running, e.g. `searchConversations: generated requests`. */
  readonly phase: string;
}

/** Options whose absence means "not asked for", kept optional after resolving. */
type OptionalOptions =
  | "agentStageId"
  | "conversationId"
  | "externalConversationId"
  | "exportPath"
  | "onProgress"
  | "maxResponseTimeMs"
  | "maxTimeMs"
  | "maxFailures"
  | "baseline"
  | "checks"
  | "excludeChecks";

/** The options with their defaults applied. */
export type ResolvedOptions = Required<Omit<ConformanceOptions, OptionalOptions>> &
  Pick<ConformanceOptions, Exclude<OptionalOptions, "checks" | "excludeChecks">> & {
    /** The checks that run. */
    readonly selected: ReadonlySet<CheckName>;
  };

/** Bad options (the message names the option and what was expected): the toolkit's one usage error, `bot-conversation`'s too. */
export { UsageError };

const positiveInteger = (name: string, value: number | undefined, fallback: number, minimum = 1): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum) throw new UsageError(wrongValueText(name, `an integer of at least ${minimum}`, describeValue(value)));
  return value;
};

/** Checks the options and fills in the defaults; throws `UsageError` naming the first bad option. */
export function resolveOptions(options: ConformanceOptions): ResolvedOptions {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    // Not quoted: a URL that does not parse may still hold a password.
    throw new UsageError("baseUrl: expected an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(wrongValueText("baseUrl", "an http or https URL", url.protocol));
  // Credentials in the URL would be printed in every report and curl line: refused, never quoted (as the client does).
  if (url.username || url.password)
    throw new UsageError("baseUrl: expected no user name or password in the URL (the token goes in X-Token, other credentials in --header)");
  if (typeof options.token !== "string" || options.token.trim() === "") throw new UsageError("token: expected a non-empty token");
  if (options.allowFire && !options.conversationId && !options.externalConversationId) {
    throw new UsageError("allowFire: expected conversationId or externalConversationId, the conversation to fire into");
  }
  if (options.exportPath !== undefined && (!options.exportPath.startsWith("/") || !options.exportPath.includes("{conversationId}"))) {
    throw new UsageError(wrongValueText("exportPath", "a path starting with / and holding {conversationId}", describeValue(options.exportPath)));
  }
  const names = (option: "checks" | "excludeChecks"): CheckName[] | undefined => {
    const given = options[option];
    if (given === undefined) return undefined;
    const unknown = given.filter((name) => !isCheckName(name));
    if (unknown.length > 0)
      throw new UsageError(`${option}: unknown check ${unknown.map((name) => JSON.stringify(name)).join(", ")}; the checks are ${checkNames.join(", ")}`);
    return given as CheckName[];
  };
  const only = names("checks");
  const excluded = new Set(names("excludeChecks") ?? []);
  const selected = new Set((only ?? checkNames).filter((name) => !excluded.has(name)));
  if (selected.size === 0) throw new UsageError("checks: no check is left to run after --checks and --exclude-checks");
  for (const name of Object.keys(options.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`headers: ${JSON.stringify(name)} is not a header name`);
    if (["x-token", "content-type", "accept"].includes(name.toLowerCase()))
      throw new UsageError(`headers: ${name} is set by the kit itself (the token comes from --token or BOT_CONVERSATION_TOKEN)`);
  }
  const optionalPositive = (name: string, value: number | undefined): void => {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw new UsageError(wrongValueText(name, "a positive number", describeValue(value)));
  };
  optionalPositive("maxResponseTimeMs", options.maxResponseTimeMs);
  optionalPositive("maxTimeMs", options.maxTimeMs);
  if (options.maxFailures !== undefined) positiveInteger("maxFailures", options.maxFailures, 1);
  const rate = options.rate ?? 50;
  if (!(rate >= 0) || !Number.isFinite(rate))
    throw new UsageError(wrongValueText("rate", "a number of requests per second, 0 for no limit", describeValue(rate)));
  return {
    ...options,
    baseUrl: url.href.replace(/\/+$/, ""),
    seed: positiveInteger("seed", options.seed, Math.floor(Math.random() * 2 ** 31), 0),
    examples: positiveInteger("examples", options.examples, 50),
    allowFire: options.allowFire ?? false,
    maxRequests: positiveInteger("maxRequests", options.maxRequests, 2000),
    rate,
    timeoutMs: positiveInteger("timeoutMs", options.timeoutMs, 10_000),
    maxResponseBytes: positiveInteger("maxResponseBytes", options.maxResponseBytes, defaultMaxResponseBytes),
    selected,
    decisions: options.decisions ?? {},
    headers: options.headers ?? {},
    signal: options.signal ?? new AbortController().signal,
    fetch: options.fetch ?? globalThis.fetch,
  };
}
