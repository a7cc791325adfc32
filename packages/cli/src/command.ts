import { AbortError } from "@bot-conversation/client";
import { newCheckCommand } from "@bot-conversation/conformance/command";
import { newSandboxCommand } from "@bot-conversation/sandbox/command";
import { Command, CommanderError } from "commander";
import { newCompletionCommand } from "./completion.js";
import { secrets } from "./connection.js";
import { newFireCommand } from "./fire.js";
import { type CommandIo, exitCodes, oneLine, UsageError, version } from "./io.js";
import { newMcpCommand } from "./mcp/command.js";
import { newRecordCommand } from "./record/command.js";
import { newSearchCommand } from "./search.js";
import { newTriggersCommand } from "./triggers.js";
import { newWorkspacesCommand } from "./workspaces.js";

/** Secrets that may reach an error message: every token read (the client redacts them too), and the variable's. */
const secretsOf = (io: CommandIo) => [...secrets, io.env["BOT_CONVERSATION_TOKEN"]?.trim() ?? ""];

/**
 * The `bot-conversation` program, its commands writing to `io`; `done` receives a command's exit code.
 * One command tree, in the GitHub CLI's shape: each command is built by its own constructor (`check`
 * by the conformance kit's `newCheckCommand`, `sandbox` by the sandbox's `newSandboxCommand`), and the
 * root adds them; help and completion read the same definitions.
 */
export function program(io: CommandIo, done: (code: number) => void): Command {
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
  const commands = [
    newSearchCommand,
    newTriggersCommand,
    newFireCommand,
    newMcpCommand,
    newCheckCommand,
    newSandboxCommand,
    newWorkspacesCommand,
    newRecordCommand,
  ].map((build) => build(io, done));
  // Built apart, so given the root's settings (exit override, output) explicitly.
  for (const command of commands) {
    root.addCommand(command.copyInheritedSettings(root));
    // A command with subcommands (workspaces): each given the root's settings too.
    for (const subcommand of command.commands) subcommand.copyInheritedSettings(root);
  }
  root.addCommand(newCompletionCommand(root, io, done).copyInheritedSettings(root));
  return root;
}

/** Runs `bot-conversation <argv>` and resolves to the exit code. */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    let code: number = exitCodes.ok;
    await program(io, (exit) => (code = exit)).parseAsync(argv, { from: "user" });
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
