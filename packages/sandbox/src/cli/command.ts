/**
 * The `sandbox` command as this package contributes it to the `bot-conversation` program (the GitHub
 * CLI's `NewCmdX` shape), and the `bot-conversation-sandbox` bin, whose program is the same command.
 */
import { type CommandIo, exitCodes } from "@bot-conversation/client/command-line";
import { Command, CommanderError } from "commander";
import type { ExchangeRecord } from "../data/exchanges.ts";
import { oversizedFixtureFile } from "../data/fixture-size.ts";
import type { ServerOptions } from "../options.ts";
import { type SandboxFlags, sandboxOptions } from "./flags.ts";

/** The size bound of a fixture file, read before the file (for `bot-conversation workspaces create --fixture`). */
export { oversizedFixtureFile } from "../data/fixture-size.ts";
/** The named states and the switches (definitions and their one reading), for a command that takes them too (`bot-conversation workspaces create`) without loading the sandbox. */
export { sandboxStates } from "../model.ts";
export { parseSwitch, switchDefinitions } from "../switches.ts";
/** Paths the user typed, resolved against the folder the command was run in (`INIT_CWD` through pnpm). */
export { userFile, userFolder, userPath } from "./user-path.ts";

import { userFile } from "./user-path.ts";

/**
 * How long the process outlives the last stop signal, so the further signals of one Ctrl-C (terminal,
 * turbo, pnpm) are absorbed; every change is already on disk, so nothing waits for a flush.
 */
const signalSettleMs = 30;

/**
 * Where the command writes (the help and the ready line; errors), and its environment (`SANDBOX_TOKENS`,
 * `SANDBOX_HOST`, `SANDBOX_PORT`, `DATABASE_URL`, `SANDBOX_ADMIN_TOKEN`): the toolkit's one `CommandIo`.
 */
export type SandboxCommandIo = CommandIo;

/**
 * Node 22 warns on stderr that node:sqlite (the --data file) is experimental, beside the one line a refused
 * start prints: that warning is left out; every other is printed as Node prints it.
 */
function quietSqliteWarning(): void {
  const [printing] = process.listeners("warning");
  if (!printing) return;
  process.removeListener("warning", printing);
  process.on("warning", (warning) => {
    if (!(warning.name === "ExperimentalWarning" && warning.message.startsWith("SQLite"))) printing(warning);
  });
}

/**
 * The `sandbox` command, writing to `io`: reads its options (a bad one is one line, `error: ...`, and
 * exit code 2 to `done`), starts the server, prints its ready line and stops it on Ctrl-C or SIGTERM;
 * `done` receives 0 once it serves. A start that fails (a busy port, a refused `--data` file) rejects.
 */
export function newSandboxCommand(io: SandboxCommandIo, done: (code: number) => void): Command {
  return sandboxOptions(new Command("sandbox"))
    .description(
      "Serve the sandbox of the service: its three operations with the service's rules over generated data (or a fixture), " +
        'with a control API under /_sandbox/. Prints "Sandbox ready at <url>" when it answers; Ctrl-C or SIGTERM stops it.',
    )
    .helpOption("-h, --help", "print this help")
    .addHelpText(
      "after",
      (context) =>
        `\nExample:\n  ${context.command.name() === "sandbox" ? "bot-conversation sandbox" : context.command.name()} --port 0 --conversations 1000 --page-base 1\n`,
    )
    .action(async (flags: SandboxFlags) => {
      quietSqliteWarning();
      // Loaded only to run: --help, completion and the program's other commands start without the data's modules.
      const { serverOptionsOf } = await import("./args.ts");
      let options: ServerOptions;
      let exchanges: ExchangeRecord[] | undefined;
      try {
        options = serverOptionsOf(flags, io.env);
        const recording = flags["exchanges"] as string | undefined;
        if (recording !== undefined)
          exchanges = await (await import("../data/exchanges-file.ts")).readExchanges(userFile("--exchanges", recording, io.env), "--exchanges");
      } catch (error) {
        io.stderr.write(`error: ${(error as Error).message}\n`);
        done(exitCodes.usage);
        return;
      }
      // A fixture file over the limit is refused by its size, in one line, before anything is read or started.
      const oversized = typeof options.fixture === "string" ? await oversizedFixtureFile(options.fixture).catch(() => undefined) : undefined;
      if (oversized !== undefined) {
        io.stderr.write(`error: --fixture: ${oversized}\n`);
        done(exitCodes.usage);
        return;
      }
      const [{ startSandboxServer }, { createLogger, flushLogs, heldUntilReleased }] = await Promise.all([
        import("../sandbox.ts"),
        import("../observe/log.ts"),
      ]);
      const logger = await createLogger(io.stdout, options.logFormat);
      // The ready line is the first: the lines logged while starting (a database connected) wait for it.
      const held = heldUntilReleased(logger);
      const running = await startSandboxServer({ ...options, logger: held, exchanges }).catch((error: unknown) => {
        held.release();
        throw error;
      });
      flushLogs();
      io.stdout.write(`Sandbox ready at ${running.url}\n`);
      held.release();
      // One Ctrl-C reaches this process several times within milliseconds (terminal, turbo, pnpm): every
      // signal is handled (an unhandled second one kills the process, which pnpm reports as ELIFECYCLE),
      // and the process exits once they have settled.
      let stopping: Promise<void> | undefined;
      let settling: NodeJS.Timeout | undefined;
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        process.on(signal, () => {
          stopping ??= running.stop();
          clearTimeout(settling);
          settling = setTimeout(
            () =>
              void stopping?.then(() => {
                logger.info({ exitCode: exitCodes.ok }, "stopped");
                flushLogs();
                process.exit(exitCodes.ok);
              }),
            signalSettleMs,
          );
        });
      }
      done(exitCodes.ok);
    });
}

/** The process's own streams and environment. */
const processIo = (env: NodeJS.ProcessEnv): SandboxCommandIo => ({ stdout: process.stdout, stderr: process.stderr, env });

/** The program of the bin: the `sandbox` command itself, named `command`. */
function standalone(io: SandboxCommandIo, command: string, done: (code: number) => void): Command {
  return newSandboxCommand(io, done)
    .name(command)
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) });
}

/** The command's help, as `--help` prints it. */
export function sandboxUsage(command = "bot-conversation-sandbox"): string {
  let help = "";
  const program = standalone({ stdout: process.stdout, stderr: process.stderr, env: {} }, command, () => undefined);
  program.configureOutput({ writeOut: (text) => void (help += text) });
  program.outputHelp();
  return help;
}

/**
 * Runs the sandbox command as the bin does: parses `argv` (a leading `--`, as `pnpm start -- --port 4021`
 * passes it, is skipped), prints the help, or starts the server, prints its ready line and stops it on
 * Ctrl-C or SIGTERM. Resolves to the exit code once started (0), or on bad usage (2, with one line on
 * stderr); rejects when the start fails.
 */
export async function runSandboxCommand(argv: readonly string[], env: NodeJS.ProcessEnv, command = "bot-conversation-sandbox"): Promise<number> {
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  let code: number = exitCodes.ok;
  try {
    await standalone(processIo(env), command, (exit) => (code = exit)).parseAsync(args, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    throw error;
  }
  return code;
}
