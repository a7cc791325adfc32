import { AbortError } from "@bot-conversation/client";
import { Command, CommanderError } from "commander";
import { completionCommand } from "./completion.js";
import { runCheck, runSandbox } from "./delegates.js";
import { secrets } from "./connection.js";
import { fireCommand } from "./fire.js";
import { exitCodes, oneLine, UsageError, version, type CommandIo } from "./io.js";
import { mcpCommand } from "./mcp/command.js";
import { searchCommand } from "./search.js";
import { triggersCommand } from "./triggers.js";
import { workspacesCommand } from "./workspaces.js";

/** Secrets that may reach an error message: every token read (the client redacts them too), and the variable's. */
const secretsOf = (io: CommandIo) => [...secrets, io.env["BOT_CONVERSATION_TOKEN"]?.trim() ?? ""];

/** The `bot-conversation` program, its commands writing to `io`; `done` receives a command's exit code. */
export function program(io: CommandIo, done: (code: number) => void): Command {
  const root = new Command("bot-conversation")
    .description("The Bot Conversation Service from a terminal: search and export conversations, list and fire triggers, check a server, serve the sandbox, manage a shared sandbox's workspaces, and an MCP server.")
    .version(version, "-V, --version", "print the version")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      // Commander's error and its suggestion on one line.
      outputError: (text, writeErr) => writeErr(`${text.trim().replace(/\s*\n\s*/g, " ")}\n`),
    })
    .addHelpText("after", "\nExample:\n  BOT_CONVERSATION_TOKEN=sandbox-token bot-conversation search --base-url http://127.0.0.1:4011 --status Active\n\nExit codes: 0 done, 1 the service refused or failed, 2 bad usage (nothing sent), 130 stopped by Ctrl-C.\n");
  // Built apart, so given the root's settings (exit override, output) explicitly.
  for (const command of [searchCommand(io, done), triggersCommand(io, done), fireCommand(io, done), mcpCommand(io, done), workspacesCommand(io, done)]) {
    root.addCommand(command.copyInheritedSettings(root));
    for (const subcommand of command.commands) subcommand.copyInheritedSettings(root);
  }
  // Their own packages read their arguments (see `main`); listed here for help and completion.
  root.command("check").description("Check a server against the OpenAPI description (bot-conversation check --help).").helpOption(false);
  root.command("sandbox").description("Serve the sandbox of the service (bot-conversation sandbox --help).").helpOption(false);
  root.addCommand(completionCommand(root, io, done).copyInheritedSettings(root));
  return root;
}

/**
 * Runs `bot-conversation <argv>` and resolves to the exit code: `check` is the conformance kit's
 * command and `sandbox` the sandbox's, each called with its own arguments (their options are defined
 * once, in their packages); the others are this package's.
 */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === "check") return await runCheck(rest, io);
    // Resolves once serving (0) or on bad usage (2); the server runs until Ctrl-C or SIGTERM.
    if (first === "sandbox") return await runSandbox(rest, io);
    let code: number = exitCodes.ok;
    await program(io, (exit) => (code = exit)).parseAsync(["node", "bot-conversation", ...argv]);
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
