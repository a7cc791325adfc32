import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { type AcceptedDecisions, parseDecisions } from "./decisions.ts";

type Kind = "string" | "number" | "boolean" | "strings";

/** Each key a config may hold (the command's flags in camelCase, e.g. `maxTime` for `--max-time`) and the kind of value it takes. */
const keys = {
  baseUrl: "string",
  tokenFile: "string",
  seed: "number",
  examples: "number",
  allowFire: "boolean",
  agentStageId: "string",
  conversationId: "string",
  externalConversationId: "string",
  exportPath: "string",
  maxRequests: "number",
  rate: "number",
  timeout: "number",
  maxResponseTime: "number",
  maxTime: "number",
  maxFailures: "number",
  checks: "strings",
  excludeChecks: "strings",
  baseline: "string",
  json: "string",
  junit: "string",
  html: "string",
  header: "strings",
  proxy: "string",
  caCert: "string",
  insecure: "boolean",
} as const satisfies Record<string, Kind>;

/** The TypeScript type of each kind of value. */
interface KindTypes {
  string: string;
  number: number;
  boolean: boolean;
  strings: readonly string[];
}

/** What a `--config` file may hold: the command's options by their camelCase names, and the accepted decisions. */
export type CheckConfig = { readonly [Key in keyof typeof keys]?: KindTypes[(typeof keys)[Key]] } & {
  /** The open-point decisions the team accepts for its server. */
  readonly decisions?: AcceptedDecisions;
};

const matches = (kind: Kind, value: unknown): boolean =>
  kind === "strings"
    ? Array.isArray(value) && value.every((entry) => typeof entry === "string")
    : kind === "number"
      ? typeof value === "number" && Number.isFinite(value)
      : typeof value === kind;

/** Reads a JSON or YAML config file; throws a one-line message naming the file and the first bad key. */
export function readConfig(path: string): CheckConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`--config ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw new Error(`--config ${path}: not valid JSON or YAML (${(error as Error).message.split("\n")[0]})`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`--config ${path}: expected an object of options`);
  const entries = parsed as Record<string, unknown>;
  for (const [key, value] of Object.entries(entries)) {
    if (key === "decisions") continue;
    if (key === "token") throw new Error(`--config ${path}: token: a token is never read from a config; use BOT_CONVERSATION_TOKEN or tokenFile`);
    const kind: Kind | undefined = keys[key as keyof typeof keys];
    if (!kind) throw new Error(`--config ${path}: unknown key ${JSON.stringify(key)}; expected one of ${[...Object.keys(keys), "decisions"].join(", ")}`);
    if (!matches(kind, value))
      throw new Error(`--config ${path}: ${key}: expected ${kind === "strings" ? "an array of strings" : `a ${kind}`}; got ${JSON.stringify(value)}`);
  }
  try {
    return { ...(entries as CheckConfig), decisions: parseDecisions(entries["decisions"], "decisions") };
  } catch (error) {
    throw new Error(`--config ${path}: ${(error as Error).message}`);
  }
}

/** Flags of `check`, as commander parses them (the same names as a `--config` file's keys). */
export type CheckFlags = Omit<CheckConfig, "decisions" | "checks" | "excludeChecks" | "header"> & {
  token?: string;
  tokenFile?: string;
  config?: string;
  updateBaseline?: boolean;
  dryRun?: boolean;
  checks?: string[];
  excludeChecks?: string[];
  header?: string[];
};
