import { Argument, Command } from "commander";
import { type CommandIo, exitCodes, UsageError, write } from "./io.js";

/** The shells `completion` writes for. */
export const shells = ["bash", "zsh", "fish"] as const;

/** A flag as the completion scripts offer it: its values when they are a list, whether it takes one at all. */
interface Flag {
  readonly flag: string;
  readonly summary: string;
  /** Whether a value follows the flag. */
  readonly takesValue: boolean;
  /** The values offered after it (an enumeration's, from the same definition the help lists). */
  readonly values?: readonly string[];
}

/** A subcommand with its flags, the values of its first argument and its own subcommands (`workspaces create`), as the completion scripts list them. */
interface Entry {
  readonly name: string;
  readonly summary: string;
  readonly flags: readonly Flag[];
  readonly argumentValues?: readonly string[];
  readonly subcommands: readonly Entry[];
}

/** Every subcommand of the program, read from the command tree itself: the flags and values its help lists, and its subcommands' alike. */
function entries(program: Command): Entry[] {
  return program.commands.map((command) => {
    const flags: Flag[] = command.options.flatMap((option) =>
      option.long
        ? [
            {
              flag: option.long,
              summary: option.description,
              takesValue: option.required || option.optional,
              ...(option.argChoices ? { values: option.argChoices } : {}),
            },
          ]
        : [],
    );
    const argumentValues = command.registeredArguments[0]?.argChoices;
    return {
      name: command.name(),
      summary: command.description().split(/[.:]/)[0] ?? "",
      flags: [...flags, { flag: "--help", summary: "show help", takesValue: false }],
      ...(argumentValues ? { argumentValues } : {}),
      subcommands: entries(command),
    };
  });
}

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The fish lines of `list`, commands below `parents` (none for the program's own): each name, then each one's flags and first argument's values, then its subcommands'. */
function fishLines(list: readonly Entry[], parents: readonly string[] = []): string[] {
  const command = "complete -c bot-conversation";
  const seen = (names: readonly string[]) => names.map((name) => `__fish_seen_subcommand_from ${name}`).join("; and ");
  // The program's own commands: fish's test of no subcommand yet; a command's subcommands: after it, before any of them.
  const where =
    parents.length === 0
      ? "__fish_use_subcommand"
      : quoted(`${seen(parents)}; and not __fish_seen_subcommand_from ${list.map((entry) => entry.name).join(" ")}`);
  return [
    ...list.map((entry) => `${command} -f -n ${where} -a ${entry.name} -d ${quoted(entry.summary)}`),
    ...list.flatMap((entry) => {
      const path = [...parents, entry.name];
      const after = quoted(seen(path));
      const flags = entry.flags.map((flag) => {
        // -x: a value from the list follows (no file names); -r: a value of the user's follows (file names offered); -f: no value.
        const value = flag.values ? `-x -a ${quoted(flag.values.join(" "))}` : flag.takesValue ? "-r" : "-f";
        return `${command} -n ${after} -l ${flag.flag.slice(2)} ${value} -d ${quoted(flag.summary)}`;
      });
      const values = entry.argumentValues;
      const argument = values
        ? [`${command} -f -n ${quoted(`${seen(path)}; and not __fish_seen_subcommand_from ${values.join(" ")}`)} -a ${quoted(values.join(" "))}`]
        : [];
      return [...flags, ...argument, ...fishLines(entry.subcommands, path)];
    }),
  ];
}

/** The fish script: one `complete` line per subcommand, flag and list of values. */
function fishScript(list: readonly Entry[]): string {
  return [
    "# bot-conversation completion for fish: bot-conversation completion fish > ~/.config/fish/completions/bot-conversation.fish",
    ...fishLines(list),
    "",
  ].join("\n");
}

/** The bash `case` arm of a command at word `depth` (1 for the program's own): its subcommands, or its flags, a listed flag's values and its first argument's values. */
function bashCase(entry: Entry, depth: number, indent: string): string {
  if (entry.subcommands.length > 0) {
    return [
      `${indent}${entry.name})`,
      `${indent}  if [ "$COMP_CWORD" -eq ${depth + 1} ]; then words=${quoted(entry.subcommands.map((sub) => sub.name).join(" "))}; else`,
      `${indent}  case "\${COMP_WORDS[${depth + 1}]}" in`,
      ...entry.subcommands.map((sub) => bashCase(sub, depth + 1, `${indent}    `)),
      `${indent}  esac; fi ;;`,
    ].join("\n");
  }
  const valueCases = entry.flags.filter((flag) => flag.values).map((flag) => `${indent}    ${flag.flag}) words=${quoted(flag.values!.join(" "))} ;;`);
  const free = entry.flags.filter((flag) => flag.takesValue && !flag.values).map((flag) => flag.flag);
  const flagWords = quoted(entry.flags.map((flag) => flag.flag).join(" "));
  const otherwise = entry.argumentValues
    ? `${indent}    *) if [ "$COMP_CWORD" -eq ${depth + 1} ] && [[ "$current" != -* ]]; then words=${quoted(entry.argumentValues.join(" "))}; else words=${flagWords}; fi ;;`
    : `${indent}    *) words=${flagWords} ;;`;
  return [
    `${indent}${entry.name})`,
    `${indent}  case "$previous" in`,
    ...valueCases,
    // A value of the user's (a URL, an id, a file): nothing from here, so the shell offers file names.
    ...(free.length > 0 ? [`${indent}    ${free.join("|")}) return ;;`] : []),
    otherwise,
    `${indent}  esac ;;`,
  ].join("\n");
}

/** The bash function (zsh runs it through `bashcompinit`): subcommands, then each one's flags, a listed flag's values, its first argument's values. */
function bashFunction(list: readonly Entry[]): string {
  return [
    "_bot_conversation() {",
    '  local current="${COMP_WORDS[COMP_CWORD]}" previous="${COMP_WORDS[COMP_CWORD-1]}" words=""',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    COMPREPLY=($(compgen -W ${quoted(list.map((entry) => entry.name).join(" "))} -- "$current"))`,
    "    return",
    "  fi",
    '  case "${COMP_WORDS[1]}" in',
    ...list.map((entry) => bashCase(entry, 1, "    ")),
    "  esac",
    '  COMPREPLY=($(compgen -W "$words" -- "$current"))',
    "}",
    // -o default: with nothing offered (a file's path), the shell's own completion of file names.
    "complete -o default -F _bot_conversation bot-conversation",
    "",
  ].join("\n");
}

/** The completion script of a shell for the program's subcommands, their flags and the values of each enumeration. */
export function completionScript(program: Command, shell: (typeof shells)[number]): string {
  const list = entries(program);
  if (shell === "fish") return fishScript(list);
  const bash = bashFunction(list);
  if (shell === "bash") return `# bot-conversation completion for bash: source <(bot-conversation completion bash)\n${bash}`;
  return [
    "# bot-conversation completion for zsh: source <(bot-conversation completion zsh)",
    // bashcompinit needs compinit, which a .zshrc usually loads; loaded here when it has not been.
    "(( $+functions[compdef] )) || { autoload -U +X compinit && compinit -u; }",
    "autoload -U +X bashcompinit && bashcompinit",
    bash,
  ].join("\n");
}

/** The `completion bash|zsh|fish` command. */
export function newCompletionCommand(program: Command, io: CommandIo, done: (code: number) => void): Command {
  const shell = new Argument("<shell>", "the shell");
  // Listed in the help and completed; checked below, in the CLI's words.
  shell.argChoices = [...shells];
  return new Command("completion")
    .description("Print the shell completion script of bash, zsh or fish: commands, flags and the values of each enumeration.")
    .addArgument(shell)
    .addHelpText("after", "\nExample:\n  source <(bot-conversation completion bash)\n")
    .action(async (name: string) => {
      if (!(shells as readonly string[]).includes(name)) throw new UsageError(`completion: expected one of ${shells.join(", ")}; got ${JSON.stringify(name)}`);
      await write(io.stdout, completionScript(program, name as (typeof shells)[number]));
      done(exitCodes.ok);
    });
}
