import { AbortError } from "@bot-conversation/client";
import { Command, CommanderError } from "commander";
import { newCompletionCommand } from "./completion.js";
import { secrets } from "./connection.js";
import { type CommandIo, exitCodes, oneLine, UsageError, version } from "./io.js";

/** Secrets that may reach an error message: every token read (the client redacts them too), and the variable's. */
const secretsOf = (io: CommandIo) => [...secrets, io.env["BOT_CONVERSATION_TOKEN"]?.trim() ?? ""];

/** A command's constructor: the command, writing to `io`; `done` receives its exit code. */
export type CommandConstructor = (io: CommandIo, done: (code: number) => void) => Command;

/**
 * Every command of the program in the order of its help (`completion` follows, built over them): the name
 * it runs by, and its constructor, whose module is loaded only when the command is built. A command run
 * by its name loads its own module and no other's (`search` starts without the sandbox's, the kit's or the
 * recorder's); help, completion and a mistake load them all.
 */
const commandModules: readonly (readonly [string, () => Promise<CommandConstructor>])[] = [
  ["search", async () => (await import("./search.js")).newSearchCommand],
  ["triggers", async () => (await import("./triggers.js")).newTriggersCommand],
  ["fire", async () => (await import("./fire.js")).newFireCommand],
  ["mcp", async () => (await import("./mcp/command.js")).newMcpCommand],
  ["check", async () => (await import("@bot-conversation/conformance/command")).newCheckCommand],
  ["sandbox", async () => (await import("@bot-conversation/sandbox/command")).newSandboxCommand],
  ["workspaces", async () => (await import("./workspaces.js")).newWorkspacesCommand],
  ["record", async () => (await import("./record/command.js")).newRecordCommand],
];

/** Every command's constructor, once `loadCommands` has loaded them: what `program` builds by default. */
let everyCommand: readonly CommandConstructor[] | undefined;

/**
 * Loads the constructors of the commands `argv` may run: the one its first word names, else every one
 * (loaded once, then `program`'s default). The package's entry loads every one when it is imported.
 */
export async function loadCommands(argv: readonly string[] = []): Promise<readonly CommandConstructor[]> {
  const named = commandModules.find(([name]) => name === argv[0]);
  if (named) return [await named[1]()];
  everyCommand ??= await Promise.all(commandModules.map(([, load]) => load()));
  return everyCommand;
}

/**
 * The `bot-conversation` program, its commands writing to `io`; `done` receives a command's exit code.
 * One command tree, in the GitHub CLI's shape: each command is built by its own constructor (`check`
 * by the conformance kit's `newCheckCommand`, `sandbox` by the sandbox's `newSandboxCommand`), and the
 * root adds them; help and completion read the same definitions. `commands`: every command (loaded by
 * `loadCommands`, as the package's entry does), or those of one run.
 */
export function program(io: CommandIo, done: (code: number) => void, commands: readonly CommandConstructor[] | undefined = everyCommand): Command {
  if (!commands) throw new Error("program: the commands are not loaded yet (await loadCommands())");
  const root = new Command("bot-conversation")
    .description(
      "The Bot Conversation Service from a terminal: search and export conversations, list and fire triggers, check a server, serve the sandbox, manage a shared sandbox's workspaces, record the real service, and an MCP server.",
    )
    .version(version, "-V, --version", "print the version")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      // Commander's error and its suggestion on one line.
      outputError: (text, writeErr) => writeErr(`${text.trim().replace(/\s*\n\s*/g, " ")}\n`),
    })
    .addHelpText(
      "after",
      `\nExample:\n  BOT_CONVERSATION_TOKEN=sandbox-token bot-conversation search --base-url http://127.0.0.1:4011 --status Active\n\n` +
        `Exit codes: ${exitCodes.ok} done, ${exitCodes.failed} the service refused or failed, ${exitCodes.usage} bad usage (nothing sent), ` +
        `${exitCodes.incomplete} check stopped by the server's rate limit, ${exitCodes.interrupted} stopped by Ctrl-C.\n`,
    );
  // Built apart, so given the root's settings (exit override, output) explicitly.
  for (const command of commands.map((build) => build(io, done))) {
    root.addCommand(command.copyInheritedSettings(root));
    // A command with subcommands (workspaces): each given the root's settings too.
    for (const subcommand of command.commands) subcommand.copyInheritedSettings(root);
  }
  root.addCommand(newCompletionCommand(root, io, done).copyInheritedSettings(root));
  return root;
}

/** Runs `bot-conversation <argv>` and resolves to the exit code; only the command it names is loaded and built. */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    let code: number = exitCodes.ok;
    await program(io, (exit) => (code = exit), await loadCommands(argv)).parseAsync(argv, { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    io.stderr.write(`error: ${oneLine(error, secretsOf(io))}\n`);
    if (error instanceof AbortError) return exitCodes.interrupted;
    // A caller's mistake found before sending (the client's TypeError names the option): usage.
    if (error instanceof UsageError || error instanceof TypeError) return exitCodes.usage;
    return exitCodes.failed;
  }
}
