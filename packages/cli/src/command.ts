import { exitCodes, runCheckCommand, type CommandIo } from "@bot-conversation/conformance";
import { runSandboxCommand } from "@bot-conversation/sandbox";

/** The commands of `bot-conversation`, each with what it does and an example. */
export const commands = {
  check: {
    summary: "check a server against the OpenAPI description (read-only unless --allow-fire)",
    example: "bot-conversation check --base-url http://127.0.0.1:4011 --token sandbox-token",
  },
  sandbox: {
    summary: "serve the sandbox: the service's rules over generated data, on 127.0.0.1",
    example: "bot-conversation sandbox --port 0 --conversations 1000",
  },
} as const;

/** The top-level help: every command with an example. */
export function usage(): string {
  const rows = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(9)}${command.summary}`);
  const examples = Object.values(commands).map((command) => `  ${command.example}`);
  return `Usage: bot-conversation <command> [options]

Tools for the Bot Conversation Service.

Commands:
${rows.join("\n")}

Run "bot-conversation <command> --help" for a command's options.

Examples:
${examples.join("\n")}
`;
}

/**
 * Runs `bot-conversation <argv>` and resolves to the exit code: `check` is the conformance kit's
 * command and `sandbox` the sandbox's, each called with its own arguments (their options are defined
 * once, in their packages). Exit codes: 0 passed or served, 1 a check failed, 2 bad usage, 130 stopped.
 */
export async function runCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "check") return runCheckCommand(argv, io);
  if (name === "sandbox") return runSandboxCommand(rest, io.env ?? {}, "bot-conversation sandbox");
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(usage());
    return name === undefined ? exitCodes.usage : exitCodes.passed;
  }
  io.stderr.write(`bot-conversation: unknown command ${JSON.stringify(name)}; expected one of ${Object.keys(commands).join(", ")} (see bot-conversation --help)\n`);
  return exitCodes.usage;
}
