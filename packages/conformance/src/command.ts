/**
 * The `check` command as this package contributes it to the `bot-conversation` program (the GitHub
 * CLI's `NewCmdX` shape): its flags, defined here once, its help and example. What a run does
 * (`check.ts`) is loaded only when a check runs, so the program starts without it.
 */
import { type CommandIo, exitCodes, tokenFlags } from "@bot-conversation/client/command-line";
import { Command, CommanderError, InvalidArgumentError } from "commander";
import type { CheckFlags } from "./config.ts";

/**
 * Where the command writes (the human report on stdout; usage errors, the progress bar on a terminal and
 * notes on stderr), its environment (`BOT_CONVERSATION_TOKEN`, and `GITHUB_ACTIONS` / `GITHUB_STEP_SUMMARY`
 * on GitHub Actions) and what stops it (Ctrl-C: the run reports what ran): the toolkit's one `CommandIo`.
 */
export type { CheckFlags, CommandIo };
export { exitCodes };

const integer =
  (name: string, minimum: number) =>
  (value: string): number => {
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || parsed < minimum)
      throw new InvalidArgumentError(`expected an integer of at least ${minimum} for ${name}; got ${JSON.stringify(value)}`);
    return parsed;
  };

const number =
  (name: string, positive = false) =>
  (value: string): number => {
    const parsed = Number(value);
    if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0 || (positive && parsed === 0)) {
      throw new InvalidArgumentError(`expected a number ${positive ? "above" : "of at least"} 0 for ${name}; got ${JSON.stringify(value)}`);
    }
    return parsed;
  };

const names = (value: string, previous: string[] = []): string[] => [
  ...previous,
  ...value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean),
];
const repeat = (value: string, previous: string[] = []): string[] => [...previous, value];

const example = `
Examples:
  bot-conversation check --base-url http://127.0.0.1:4011 --token sandbox-token
  bot-conversation check --base-url https://bots.example.com --token-file token.txt --max-time 300 --max-response-time 2000 \\
    --config conformance.yaml --baseline baseline.json --junit report.xml --html report.html`;

/** The `check` command, writing to `io`; `done` receives its exit code (`exitCodes`). */
export function newCheckCommand(io: CommandIo, done: (code: number) => void): Command {
  const command = new Command("check")
    .description("Check a server against the OpenAPI description: generated requests, the service's rules, and the open points. Read-only unless --allow-fire.")
    .option("--base-url <url>", "base address of the server, e.g. http://127.0.0.1:4011 (required, here or in --config)");
  for (const flag of tokenFlags) command.option(flag.flags, flag.description);
  return command
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
    .addHelpText(
      "after",
      `${example}\n\nExit codes: ${exitCodes.ok} no new failure, ${exitCodes.failed} a new failure, ${exitCodes.usage} bad usage or an unusable server, ` +
        `${exitCodes.incomplete} stopped by the server's rate limit, ${exitCodes.interrupted} stopped by Ctrl-C.\n`,
    )
    .action(async (flags: CheckFlags) => {
      const { check } = await import("./check.ts");
      done(await check(flags, io));
    });
}

/**
 * Runs `bot-conversation check <argv>` (`argv` starts with `check`) with the command of `newCheckCommand`
 * as the program, and resolves to the exit code; the `bot-conversation` program adds the same command.
 */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name !== "check") {
    io.stderr.write(`error: unknown command ${JSON.stringify(name ?? "")}; expected check\n`);
    return exitCodes.usage;
  }
  let exitCode: number = exitCodes.usage;
  const command = newCheckCommand(io, (code) => (exitCode = code))
    .name("bot-conversation check")
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) });
  try {
    await command.parseAsync(rest, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    throw error;
  }
  return exitCode;
}
