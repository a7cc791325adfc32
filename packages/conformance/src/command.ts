import { appendFile, readFile, writeFile } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { baselineOf, parseBaseline, type Baseline } from "./baseline.ts";
import { readConfig, type CheckConfig } from "./config.ts";
import { loadDescription } from "./description.ts";
import { networkFetch, type NetworkFetch } from "./network.ts";
import { resolveOptions, UsageError, type ConformanceOptions } from "./options.ts";
import { githubAnnotations, githubSummary } from "./report/github.ts";
import { htmlReport } from "./report/html.ts";
import { humanReport } from "./report/human.ts";
import { jsonReport } from "./report/json.ts";
import { junitReport } from "./report/junit.ts";
import { planText } from "./report/plan.ts";
import { progressBar } from "./report/progress.ts";
import { sanitizeText, tokenFromFile } from "@bot-conversation/client/text";
import { redactToken } from "./redact.ts";
import { runConformance, ServerUnusableError, type ConformanceReport } from "./runner.ts";

/** Exit codes: no new failure; a new failure; bad usage or an unusable server; the server's rate limit kept the run from finishing within its bounds; stopped by Ctrl-C with no failure. */
export const exitCodes = { passed: 0, failed: 1, usage: 2, incomplete: 3, interrupted: 130 } as const;

/** Where the command writes, and what stops it (tests pass their own). */
export interface CommandIo {
  /** Receives the human report. */
  readonly stdout: NodeJS.WritableStream;
  /** Receives usage errors, the progress bar (on a terminal) and notes. */
  readonly stderr: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Aborted on Ctrl-C: the run stops and reports what ran. */
  readonly signal?: AbortSignal;
  /** Environment: `BOT_CONVERSATION_TOKEN`, and `GITHUB_ACTIONS` / `GITHUB_STEP_SUMMARY` on GitHub Actions. */
  readonly env?: NodeJS.ProcessEnv;
}

const integer = (name: string, minimum: number) => (value: string): number => {
  const parsed = Number(value);
  if (!/^-?\d+$/.test(value) || parsed < minimum) throw new InvalidArgumentError(`expected an integer of at least ${minimum} for ${name}; got ${JSON.stringify(value)}`);
  return parsed;
};

const number = (name: string, positive = false) => (value: string): number => {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0 || (positive && parsed === 0)) {
    throw new InvalidArgumentError(`expected a number ${positive ? "above" : "of at least"} 0 for ${name}; got ${JSON.stringify(value)}`);
  }
  return parsed;
};

const names = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(",").map((name) => name.trim()).filter(Boolean)];
const repeat = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Flags of `check`, as commander parses them (the same names as a `--config` file's keys). */
type CheckFlags = Omit<CheckConfig, "decisions" | "checks" | "excludeChecks" | "header"> & {
  token?: string;
  config?: string;
  updateBaseline?: boolean;
  dryRun?: boolean;
  checks?: string[];
  excludeChecks?: string[];
  header?: string[];
};

const example = `
Examples:
  bot-conversation check --base-url http://127.0.0.1:4011 --token sandbox-token
  bot-conversation check --base-url https://bots.example.com --token-file token.txt --max-time 300 --max-response-time 2000 \\
    --config conformance.yaml --baseline baseline.json --junit report.xml --html report.html`;

/** The `check` command: its flags, help and example, running `action` with the parsed flags. */
function checkCommand(action: (flags: CheckFlags) => Promise<void>): Command {
  return new Command("check")
    .description("Check a server against the OpenAPI description: generated requests, the service's rules, and the open points. Read-only unless --allow-fire.")
    .option("--base-url <url>", "base address of the server, e.g. http://127.0.0.1:4011 (required, here or in --config)")
    .addOption(new Option("--token <token>", "access token sent in X-Token (never printed)").env("BOT_CONVERSATION_TOKEN"))
    .option("--token-file <file>", "read the token from this file: one line, trimmed (a second line is refused)")
    .option("--config <file>", "JSON or YAML file with these options by camelCase name, and the open-point decisions your server has taken")
    .option("--seed <n>", "seed of the generated requests (printed in the report, to replay a run)", integer("--seed", 0))
    .option("--examples <n>", "generated requests per property (default 50)", integer("--examples", 1))
    .option("--checks <names>", "run only these checks (comma-separated, repeatable)", names)
    .option("--exclude-checks <names>", "leave these checks out (comma-separated, repeatable)", names)
    .option("--allow-fire", "allow the fire operation (POST): it runs scenarios on the server")
    .option("--conversation-id <id>", "conversation to fire into (must exist)")
    .option("--external-conversation-id <id>", "conversation to fire into, by external identifier (<SESSION_ID>|livechat)")
    .option("--agent-stage-id <id>", "bot whose triggers are listed and fired (must exist)")
    .option("--export-path <path>", "a route returning a conversation export, e.g. /_sandbox/conversations/{conversationId}/export")
    .option("--max-requests <n>", "at most this many requests (default 2000)", integer("--max-requests", 1))
    .option("--rate <n>", "at most this many requests per second, 0 for no limit (default 50)", number("--rate"))
    .option("--timeout <ms>", "time-out of one request in milliseconds (default 10000)", integer("--timeout", 1))
    .option("--max-response-time <ms>", "fail any response slower than this (the max_response_time check, off by default)", integer("--max-response-time", 1))
    .option("--max-time <s>", "stop the whole run after this many seconds and report what ran", number("--max-time", true))
    .option("--max-failures <n>", "stop after this many failures and report what ran", integer("--max-failures", 1))
    .option("--baseline <file>", "known failures and accepted findings (JSON): only new failures fail the run")
    .option("--update-baseline", "write this run's failures and findings to --baseline")
    .option("--json <file>", "also write the report as JSON")
    .option("--junit <file>", "also write the report as JUnit XML")
    .option("--html <file>", "also write the report as one self-contained HTML page")
    .option("--header <header>", "extra request header 'Name: value' (repeatable)", repeat)
    .option("--proxy <url>", "send every request through this HTTP(S) proxy")
    .option("--ca-cert <file>", "trust the certificate authorities in this PEM file")
    .option("--insecure", "do not check TLS certificates (a test server with a self-signed one)")
    .option("--dry-run", "print the plan and send nothing")
    .addHelpText("after", example)
    .action(action);
}

/** Every flag of `check` with its summary, as shell completion offers them. */
export function checkFlags(): { flag: string; summary: string }[] {
  return checkCommand(async () => undefined).options.flatMap((option) => (option.long ? [{ flag: option.long, summary: option.description }] : []));
}

/** Runs `bot-conversation <argv>` and resolves to the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  let exitCode: number = exitCodes.usage;
  const program = new Command("bot-conversation")
    .description("Tools for the Bot Conversation Service.")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  program.addCommand(checkCommand(async (flags) => {
    exitCode = await check(flags, io);
  }).copyInheritedSettings(program));
  try {
    await program.parseAsync(["node", "bot-conversation", ...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0 ? 0 : exitCodes.usage;
    throw error;
  }
  return exitCode;
}

/** `Name: value` headers as an object; throws naming a malformed one. */
function parseHeaders(headers: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    headers.map((header) => {
      const at = header.indexOf(":");
      if (at <= 0) throw new UsageError(`--header ${JSON.stringify(header)}: expected 'Name: value'`);
      return [header.slice(0, at).trim(), header.slice(at + 1).trim()];
    }),
  );
}

async function readToken(flags: CheckFlags, io: CommandIo): Promise<string> {
  if (flags.tokenFile) {
    let text: string;
    try {
      text = await readFile(flags.tokenFile, "utf8");
    } catch (error) {
      throw new UsageError(`--token-file ${flags.tokenFile}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    try {
      // The one rule of every command (the client's): the whole file, trimmed; one line.
      return tokenFromFile(text, `--token-file ${flags.tokenFile}`);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const token = flags.token ?? io.env?.["BOT_CONVERSATION_TOKEN"];
  if (!token) throw new UsageError("--token, --token-file or BOT_CONVERSATION_TOKEN is required: the access token sent in X-Token");
  return token;
}

async function readBaseline(path: string, update: boolean): Promise<Baseline | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (update && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`--baseline ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return parseBaseline(JSON.parse(text) as unknown, "baseline");
  } catch (error) {
    throw new UsageError(`--baseline ${path}: ${(error as Error).message}`);
  }
}

/** The command's options: the flags over the config file's values. */
async function optionsOf(flags: CheckFlags, io: CommandIo): Promise<{ options: ConformanceOptions; merged: CheckFlags & CheckConfig; close: () => Promise<void> }> {
  let config: CheckConfig = {};
  if (flags.config) {
    try {
      config = readConfig(flags.config);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  const merged = { ...config, ...given } as CheckFlags & CheckConfig;
  if (!merged.baseUrl) throw new UsageError("--base-url is required (or baseUrl in --config): the base address of the server");
  if (merged.updateBaseline && !merged.baseline) throw new UsageError("--update-baseline needs --baseline FILE: the file to write");
  const token = await readToken(merged, io);
  let network: NetworkFetch | undefined;
  try {
    network = networkFetch({ proxy: merged.proxy, caCert: merged.caCert, insecure: merged.insecure });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const baseline = merged.baseline ? await readBaseline(merged.baseline, merged.updateBaseline === true) : undefined;
  const options: ConformanceOptions = {
    baseUrl: merged.baseUrl,
    token,
    allowFire: merged.allowFire === true,
    ...(merged.seed === undefined ? {} : { seed: merged.seed }),
    ...(merged.examples === undefined ? {} : { examples: merged.examples }),
    ...(merged.agentStageId === undefined ? {} : { agentStageId: merged.agentStageId }),
    ...(merged.conversationId === undefined ? {} : { conversationId: merged.conversationId }),
    ...(merged.externalConversationId === undefined ? {} : { externalConversationId: merged.externalConversationId }),
    ...(merged.exportPath === undefined ? {} : { exportPath: merged.exportPath }),
    ...(merged.maxRequests === undefined ? {} : { maxRequests: merged.maxRequests }),
    ...(merged.rate === undefined ? {} : { rate: merged.rate }),
    ...(merged.timeout === undefined ? {} : { timeoutMs: merged.timeout }),
    ...(merged.maxResponseTime === undefined ? {} : { maxResponseTimeMs: merged.maxResponseTime }),
    ...(merged.maxTime === undefined ? {} : { maxTimeMs: merged.maxTime * 1000 }),
    ...(merged.maxFailures === undefined ? {} : { maxFailures: merged.maxFailures }),
    ...(merged.checks === undefined ? {} : { checks: merged.checks }),
    ...(merged.excludeChecks === undefined ? {} : { excludeChecks: merged.excludeChecks }),
    ...(config.decisions ? { decisions: config.decisions } : {}),
    ...(baseline ? { baseline } : {}),
    ...(merged.header ? { headers: parseHeaders(merged.header) } : {}),
    ...(network ? { fetch: network.fetch } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  };
  return { options, merged, close: async () => network?.close() };
}

async function check(flags: CheckFlags, io: CommandIo): Promise<number> {
  let token = flags.token ?? io.env?.["BOT_CONVERSATION_TOKEN"] ?? "";
  const fail = (error: unknown): number => {
    io.stderr.write(`error: ${sanitizeText(redactToken(error instanceof Error ? error.message : String(error), token).replace(/\s*[\r\n]\s*/g, "; "))}\n`);
    return exitCodes.usage;
  };
  let prepared: Awaited<ReturnType<typeof optionsOf>>;
  try {
    prepared = await optionsOf(flags, io);
    token = prepared.options.token;
    if (flags.dryRun) {
      await prepared.close();
      io.stdout.write(planText(resolveOptions(prepared.options), loadDescription()));
      return exitCodes.passed;
    }
  } catch (error) {
    if (error instanceof UsageError) return fail(error);
    throw error;
  }
  const { options, merged, close } = prepared;
  const progress = progressBar(io.stderr as NodeJS.WriteStream);
  let report: ConformanceReport;
  try {
    report = await runConformance({ ...options, onProgress: (state) => progress.update(state) });
  } catch (error) {
    if (error instanceof UsageError || error instanceof ServerUnusableError) return fail(error);
    throw error;
  } finally {
    progress.stop();
    await close();
  }
  io.stdout.write(humanReport(report));
  // Every report is written whatever stopped the run: a partial report is a report.
  if (merged.json) await writeFile(merged.json, jsonReport(report));
  if (merged.junit) await writeFile(merged.junit, junitReport(report));
  if (merged.html) await writeFile(merged.html, htmlReport(report));
  if (io.env?.["GITHUB_ACTIONS"] === "true") {
    io.stdout.write(githubAnnotations(report));
    const summary = io.env["GITHUB_STEP_SUMMARY"];
    if (summary) await appendFile(summary, githubSummary(report));
  }
  if (merged.updateBaseline && merged.baseline) {
    const baseline = baselineOf(report.checks, report.findings);
    await writeFile(merged.baseline, `${JSON.stringify(baseline, null, 2)}\n`);
    io.stderr.write(`Baseline written to ${merged.baseline}: ${baseline.failures.length} known failures, ${Object.keys(baseline.findings).length} findings.\n`);
    return report.stopped === "interrupted" ? exitCodes.interrupted : exitCodes.passed;
  }
  if (!report.passed && report.newFailures > 0) return exitCodes.failed;
  if (report.stopped === "rate-limit") return exitCodes.incomplete;
  if (!report.passed) return exitCodes.failed;
  return report.stopped === "interrupted" ? exitCodes.interrupted : exitCodes.passed;
}
