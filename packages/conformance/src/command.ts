import { writeFile } from "node:fs/promises";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { UsageError, type ConformanceOptions } from "./options.ts";
import { humanReport } from "./report/human.ts";
import { jsonReport } from "./report/json.ts";
import { junitReport } from "./report/junit.ts";
import { progressBar } from "./report/progress.ts";
import { redactToken } from "./redact.ts";
import { runConformance, ServerUnusableError } from "./runner.ts";

/** Exit codes: every check held; a check failed; bad usage or an unusable server; stopped by Ctrl-C with no failure. */
export const exitCodes = { passed: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** Where the command writes, and what stops it (tests pass their own). */
export interface CommandIo {
  /** Receives the human report. */
  readonly stdout: NodeJS.WritableStream;
  /** Receives usage errors, the progress bar (on a terminal) and notes. */
  readonly stderr: NodeJS.WriteStream | NodeJS.WritableStream;
  /** Aborted on Ctrl-C: the run stops and reports what ran. */
  readonly signal?: AbortSignal;
  /** Environment, for `BOT_CONVERSATION_TOKEN`. */
  readonly env?: NodeJS.ProcessEnv;
}

const integer = (name: string, minimum: number) => (value: string): number => {
  const parsed = Number(value);
  if (!/^-?\d+$/.test(value) || parsed < minimum) throw new InvalidArgumentError(`expected an integer of at least ${minimum} for ${name}; got ${JSON.stringify(value)}`);
  return parsed;
};

const number = (name: string) => (value: string): number => {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError(`expected a number of at least 0 for ${name}; got ${JSON.stringify(value)}`);
  return parsed;
};

/** Flags of `check`, as commander parses them. */
interface CheckFlags {
  baseUrl: string;
  token?: string;
  seed?: number;
  examples?: number;
  allowFire?: boolean;
  agentStageId?: string;
  conversationId?: string;
  externalConversationId?: string;
  exportPath?: string;
  maxRequests?: number;
  rate?: number;
  timeout?: number;
  json?: string;
  junit?: string;
}

/** Runs `bot-conversation <argv>` and resolves to the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  let exitCode: number = exitCodes.usage;
  const program = new Command("bot-conversation")
    .description("Tools for the Bot Conversation Service.")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  program
    .command("check")
    .description("Check a server against the OpenAPI description: generated requests, the service's rules, and the open points. Read-only unless --allow-fire.")
    .requiredOption("--base-url <url>", "base address of the server, e.g. http://127.0.0.1:4011")
    .addOption(new Option("--token <token>", "access token sent in X-Token (never printed)").env("BOT_CONVERSATION_TOKEN"))
    .option("--seed <n>", "seed of the generated requests (printed in the report, to replay a run)", integer("--seed", 0))
    .option("--examples <n>", "generated requests per property (default 50)", integer("--examples", 1))
    .option("--allow-fire", "allow the fire operation (POST): it runs scenarios on the server")
    .option("--conversation-id <id>", "conversation to fire into")
    .option("--external-conversation-id <id>", "conversation to fire into, by external identifier (<SESSION_ID>|livechat)")
    .option("--agent-stage-id <id>", "bot whose triggers are listed and fired")
    .option("--export-path <path>", "a route returning a conversation export, e.g. /_sandbox/conversations/{conversationId}/export")
    .option("--max-requests <n>", "at most this many requests (default 2000)", integer("--max-requests", 1))
    .option("--rate <n>", "at most this many requests per second, 0 for no limit (default 50)", number("--rate"))
    .option("--timeout <ms>", "time-out of one request in milliseconds (default 30000)", integer("--timeout", 1))
    .option("--json <file>", "also write the report as JSON")
    .option("--junit <file>", "also write the report as JUnit XML")
    .action(async (flags: CheckFlags) => {
      exitCode = await check(flags, io);
    });
  try {
    await program.parseAsync(["node", "bot-conversation", ...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0 ? 0 : exitCodes.usage;
    throw error;
  }
  return exitCode;
}

async function check(flags: CheckFlags, io: CommandIo): Promise<number> {
  const token = flags.token ?? io.env?.["BOT_CONVERSATION_TOKEN"];
  if (!token) {
    io.stderr.write("error: --token (or BOT_CONVERSATION_TOKEN) is required: the access token sent in X-Token\n");
    return exitCodes.usage;
  }
  const progress = progressBar(io.stderr as NodeJS.WriteStream);
  const options: ConformanceOptions = {
    baseUrl: flags.baseUrl,
    token,
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.examples === undefined ? {} : { examples: flags.examples }),
    allowFire: flags.allowFire === true,
    ...(flags.agentStageId === undefined ? {} : { agentStageId: flags.agentStageId }),
    ...(flags.conversationId === undefined ? {} : { conversationId: flags.conversationId }),
    ...(flags.externalConversationId === undefined ? {} : { externalConversationId: flags.externalConversationId }),
    ...(flags.exportPath === undefined ? {} : { exportPath: flags.exportPath }),
    ...(flags.maxRequests === undefined ? {} : { maxRequests: flags.maxRequests }),
    ...(flags.rate === undefined ? {} : { rate: flags.rate }),
    ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
    ...(io.signal ? { signal: io.signal } : {}),
    onProgress: (state) => progress.update(state),
  };
  let report;
  try {
    report = await runConformance(options);
  } catch (error) {
    progress.stop();
    if (error instanceof UsageError || error instanceof ServerUnusableError) {
      io.stderr.write(`error: ${redactToken(error.message, token)}\n`);
      return exitCodes.usage;
    }
    throw error;
  }
  progress.stop();
  io.stdout.write(humanReport(report));
  if (flags.json) await writeFile(flags.json, jsonReport(report));
  if (flags.junit) await writeFile(flags.junit, junitReport(report));
  if (!report.passed) return exitCodes.failed;
  return report.stopped === "interrupted" ? exitCodes.interrupted : exitCodes.passed;
}
