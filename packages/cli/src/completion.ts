import { Command } from "commander";
import { exitCodes, UsageError, write, type CommandIo } from "./io.js";

/** The shells `completion` writes for. */
export const shells = ["bash", "zsh", "fish"] as const;

/** A subcommand with its flags, as the completion scripts list them. */
interface Entry {
  readonly name: string;
  readonly summary: string;
  readonly flags: readonly { readonly flag: string; readonly summary: string }[];
}

function entries(program: Command): Entry[] {
  return program.commands.map((command) => ({
    name: command.name(),
    summary: command.description().split(/[.:]/)[0] ?? "",
    flags: command.options.flatMap((option) => (option.long ? [{ flag: option.long, summary: option.description }] : [])).concat({ flag: "--help", summary: "show help" }),
  }));
}

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The completion script of a shell for the program's subcommands and their flags. */
export function completionScript(program: Command, shell: (typeof shells)[number]): string {
  const list = entries(program);
  const names = list.map((entry) => entry.name).join(" ");
  if (shell === "fish") {
    return [
      "# bot-conversation completion for fish: bot-conversation completion fish > ~/.config/fish/completions/bot-conversation.fish",
      ...list.map((entry) => `complete -c bot-conversation -f -n __fish_use_subcommand -a ${entry.name} -d ${quoted(entry.summary)}`),
      ...list.flatMap((entry) =>
        entry.flags.map((flag) => `complete -c bot-conversation -f -n ${quoted(`__fish_seen_subcommand_from ${entry.name}`)} -l ${flag.flag.slice(2)} -d ${quoted(flag.summary)}`),
      ),
      "",
    ].join("\n");
  }
  const cases = list.map((entry) => `    ${entry.name}) flags=${quoted(entry.flags.map((flag) => flag.flag).join(" "))} ;;`).join("\n");
  const bash = [
    "_bot_conversation() {",
    '  local current="${COMP_WORDS[COMP_CWORD]}" flags=""',
    "  if [ \"$COMP_CWORD\" -eq 1 ]; then",
    `    COMPREPLY=($(compgen -W ${quoted(names)} -- "$current"))`,
    "    return",
    "  fi",
    '  case "${COMP_WORDS[1]}" in',
    cases,
    "  esac",
    '  COMPREPLY=($(compgen -W "$flags" -- "$current"))',
    "}",
    "complete -F _bot_conversation bot-conversation",
    "",
  ].join("\n");
  if (shell === "bash") return `# bot-conversation completion for bash: source <(bot-conversation completion bash)\n${bash}`;
  return `# bot-conversation completion for zsh: source <(bot-conversation completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n${bash}`;
}

/**
 * `check` and `sandbox` read their own arguments (their packages' commands), so the program lists them
 * without flags; for completion, their flags are taken from those packages' own definitions, loaded
 * only here (every other command starts without them).
 */
async function addDelegatedFlags(program: Command): Promise<void> {
  const [{ checkFlags }, { sandboxFlags }] = await Promise.all([import("@bot-conversation/conformance"), import("@bot-conversation/sandbox")]);
  for (const [name, flags] of [["check", checkFlags()], ["sandbox", sandboxFlags()]] as const) {
    const command = program.commands.find((candidate) => candidate.name() === name);
    for (const { flag, summary } of flags) if (flag !== "--help" && !command?.options.some((option) => option.long === flag)) command?.option(flag, summary);
  }
}

/** The `completion bash|zsh|fish` command. */
export function completionCommand(program: Command, io: CommandIo, done: (code: number) => void): Command {
  return new Command("completion")
    .description("Print the shell completion script of bash, zsh or fish.")
    .argument("<shell>", `one of ${shells.join(", ")}`)
    .addHelpText("after", "\nExample:\n  source <(bot-conversation completion bash)\n")
    .action(async (shell: string) => {
      if (!(shells as readonly string[]).includes(shell)) throw new UsageError(`completion: expected one of ${shells.join(", ")}; got ${JSON.stringify(shell)}`);
      await addDelegatedFlags(program);
      await write(io.stdout, completionScript(program, shell as (typeof shells)[number]));
      done(exitCodes.ok);
    });
}
