import { type Command, Option } from "commander";
import { logFormats, sandboxStates } from "../model.ts";
import { defaultSwitches, type SandboxSwitches, type SwitchDefinition, switchDefinitions } from "../switches.ts";

/** One of the command's own options (besides the switches): its name, the name of its value, what it does, its values when they are a list. */
interface CommandFlag {
  readonly name: string;
  readonly value: string;
  readonly summary: string;
  readonly values?: readonly string[];
  readonly repeatable?: boolean;
}

/** The command's own options (besides the switches), defined once: read here, listed by `--help` and by shell completion. */
export const commandFlags: readonly CommandFlag[] = [
  { name: "port", value: "<port>", summary: "port on 127.0.0.1 (default 4011; 0 takes any free port; SANDBOX_PORT)" },
  { name: "host", value: "<host>", summary: "interface to listen on (default 127.0.0.1; SANDBOX_HOST)" },
  { name: "seed", value: "<text>", summary: "seed of the generated data (default bot-conversation)" },
  { name: "conversations", value: "<n>", summary: "number of conversations (default 200)" },
  { name: "state", value: "<name>", summary: "a named starting state (default default; large is 10,000 conversations)", values: sandboxStates },
  { name: "latency", value: "<ms>", summary: "wait before each answer: 200, or a seeded range 50-400" },
  { name: "fixture", value: "<file>", summary: "load this JSON fixture instead of generated data" },
  {
    name: "exchanges",
    value: "<file>",
    summary: "answer the requests a recording holds (bot-conversation record's exchanges.ndjson) as recorded; every other by the rules",
  },
  { name: "data", value: "<file>", summary: "keep the state (data source, fired events) in this file across restarts" },
  { name: "token", value: "<token>", summary: "an accepted X-Token, repeatable (default sandbox-token; SANDBOX_TOKENS)", repeatable: true },
  {
    name: "allow-origin",
    value: "<origin>",
    summary: "a web origin (https://app.example.com) whose pages may call /_sandbox/*, repeatable (loopback origins always may)",
    repeatable: true,
  },
  { name: "allow-host", value: "<name>", summary: "a Host name to answer /_sandbox/* for, repeatable (loopback names always are)", repeatable: true },
  { name: "database-url", value: "<url>", summary: "keep every workspace in this PostgreSQL database, shared by replicas (DATABASE_URL)" },
  {
    name: "admin-token",
    value: "<token>",
    summary: "the administrator token that manages workspaces (SANDBOX_ADMIN_TOKEN; prefer it: a flag is seen in ps)",
  },
  { name: "reference-url", value: "<url>", summary: "the API reference's address, linked from / (SANDBOX_REFERENCE_URL; pnpm start sets it)" },
  {
    name: "log-format",
    value: "<format>",
    summary: "the log: one JSON line per request and event (json), or lines for a person (pretty); default pretty on a terminal, json otherwise",
    values: logFormats,
  },
];

/** The heading of the switches in `--help`. */
const switchesHeading = "Switches for the points the service leaves open (see the sandbox's README):";

/** A switch's value name: `<value>` for a list (listed as its choices), else what the value is. */
function switchValue(definition: SwitchDefinition): string {
  if (Array.isArray(definition.values)) return "<value>";
  return { "positive integer": "<n>", "positive integer or none": "<n|none>", text: "<text>" }[definition.values as string] ?? "<value>";
}

/** A switch's default as its flag writes it. */
const switchDefault = (key: keyof SandboxSwitches): string => String(defaultSwitches[key] ?? "none");

/**
 * Adds the command's options and every switch to `command`: each takes its value as text, read and
 * checked after parsing (`serverOptionsOf`), so an error names the flag and what it expects in the
 * sandbox's own words. A list of values is listed in the help (commander's `choices`) and completed
 * by the shells, but not checked by commander.
 */
export function sandboxOptions(command: Command): Command {
  const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
  for (const flag of commandFlags) {
    const option = new Option(`--${flag.name} ${flag.value}`, flag.summary);
    if (flag.values) option.argChoices = [...flag.values];
    if (flag.repeatable) option.argParser(collect);
    command.addOption(option);
  }
  for (const definition of switchDefinitions) {
    const option = new Option(
      `--${definition.flag} ${switchValue(definition)}`,
      `open point: ${definition.point.replaceAll("`", "")} (default: ${switchDefault(definition.key)})`,
    ).helpGroup(switchesHeading);
    if (Array.isArray(definition.values)) option.argChoices = [...definition.values];
    command.addOption(option);
  }
  return command;
}

/** The options as commander hands them over: text by attribute name (`allowOrigin`, `pageBase`), lists for the repeatable ones. */
export type SandboxFlags = Readonly<Record<string, string | string[] | undefined>>;
