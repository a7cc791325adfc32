/**
 * The sandbox's answers to the points the service leaves open. Each is a switch with a documented
 * default, so a team can test its client against every answer the real service might give. These
 * are the sandbox's own choices, not facts about the service.
 */

import { type DecisionId, type SandboxAnswer, sandboxAnswers } from "@bot-conversation/openapi";

/** How the sandbox answers each open point of the service. */
export interface SandboxSwitches {
  /** Index of the first page: `0` or `1` (`--page-base`). The service does not say. */
  readonly pageBase: 0 | 1;
  /** Page size used when a search sends no `pageSize` (`--default-page-size`). The service has one but does not give it. */
  readonly defaultPageSize: number;
  /** Largest `pageSize` accepted, or `null` for no limit (`--max-page-size`); larger is a 400. The service does not say. */
  readonly maxPageSize: number | null;
  /** Order of search items (`--order`): newest start first, oldest start first, or most recent message first; ties by load order, in the direction of the sort. */
  readonly order: "startedOn-desc" | "startedOn-asc" | "latestMessageOn-desc";
  /** Whether `status` matches `active` as `Active` (`--status-case`). The service lists the values capitalized only. */
  readonly statusCase: "exact" | "insensitive";
  /** Whether the end of a date range (`startToDate`, `latestMessageToDate`) is inclusive (`--date-to`). The service does not say. */
  readonly dateTo: "inclusive" | "exclusive";
  /** What a search does with a query parameter the description does not list (`--unknown-parameters`). */
  readonly unknownParameters: "reject" | "ignore";
  /** Shape of the trigger list (`--trigger-list`): a JSON array, or the bot's first trigger as one descriptor. */
  readonly triggerList: "array" | "single";
  /** Which identifier a fire request that sends both uses (`--identifier-wins`). The service does not say. */
  readonly identifierWins: "conversationId" | "externalConversationId";
  /** Spelling of the inbound message direction in `latestMessageDirection` (`--inbound-direction`); the service shows only `Outbound`. */
  readonly inboundDirection: string;
  /** Content type of error bodies (`--error-media-type`); the body has the fields of RFC 9457 problem details either way. */
  readonly errorMediaType: "application/json" | "application/problem+json";
}

/** One switch: its option name, command-line flag, default and allowed values. */
export interface SwitchDefinition {
  /** Key in `SandboxSwitches`. */
  readonly key: keyof SandboxSwitches;
  /** Command-line flag, without the leading dashes. */
  readonly flag: string;
  /** The allowed values (the default first), or a description of them when they are open (a number, a text). */
  readonly values: readonly string[] | "positive integer" | "positive integer or none" | "text";
  /** The open point of the service this switch answers: its label in `decisions.yaml` (the README's Decisions table). */
  readonly point: string;
  /** The id of that open point in `decisions.yaml`. */
  readonly decision: DecisionId;
}

/** The camel case of a flag: `page-base` is `pageBase`. */
const keyOf = (flag: string): keyof SandboxSwitches => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()) as keyof SandboxSwitches;

/**
 * Every switch, in the order of `decisions.yaml`: its flag, values and default are read there, from
 * the open point it answers (the README's switch table is generated from the same entries).
 */
export const switchDefinitions: readonly SwitchDefinition[] = sandboxAnswers.flatMap((entry): SwitchDefinition[] => {
  const answer: SandboxAnswer = entry.sandbox;
  if (answer.flag === undefined) return [];
  return [{ key: keyOf(answer.flag), flag: answer.flag, values: answer.values as SwitchDefinition["values"], point: entry.label, decision: entry.id }];
});

/** The defaults (the description's own reading where it has one, otherwise the most common practice): the first of a switch's values in `decisions.yaml`, or the default it gives an open one. */
export const defaultSwitches: SandboxSwitches = Object.fromEntries(
  switchDefinitions.map((definition) => {
    const answer: SandboxAnswer = sandboxAnswers.find((entry) => entry.id === definition.decision)!.sandbox;
    return [definition.key, parseSwitch(definition, Array.isArray(answer.values) ? answer.values[0]! : answer.default!)];
  }),
) as unknown as SandboxSwitches;

/** Reads one switch from its text form (command line), throwing an error that names the flag and the allowed values. */
export function parseSwitch(definition: SwitchDefinition, text: string): SandboxSwitches[keyof SandboxSwitches] {
  const fail = (expected: string): never => {
    throw new TypeError(`--${definition.flag}: expected ${expected}; got ${JSON.stringify(text)}`);
  };
  const { values } = definition;
  if (values === "text") return text.length > 0 ? text : fail("a non-empty text");
  if (values === "positive integer or none" && text === "none") return null;
  if (values === "positive integer" || values === "positive integer or none") {
    return /^[1-9]\d{0,8}$/.test(text) ? Number(text) : fail(values === "positive integer" ? "a positive integer" : 'a positive integer or "none"');
  }
  if (!values.includes(text)) fail(`one of ${values.join(", ")}`);
  return definition.key === "pageBase" ? Number(text) : text;
}

/** Checks switches given in process (`createSandbox`), with the same rules and messages as the command line. */
export function checkSwitches(given: Partial<SandboxSwitches>): SandboxSwitches {
  const checked: Record<string, unknown> = { ...defaultSwitches };
  for (const definition of switchDefinitions) {
    const value = given[definition.key];
    if (value === undefined) continue;
    const text = value === null ? "none" : String(value);
    const parsed = parseSwitch(definition, text);
    if (parsed !== value && !(typeof value === "number" && parsed === value)) {
      throw new TypeError(
        `${definition.key}: expected ${Array.isArray(definition.values) ? `one of ${definition.values.join(", ")}` : `a ${definition.values}`}; got ${JSON.stringify(value)}`,
      );
    }
    checked[definition.key] = parsed;
  }
  const switches = checked as unknown as SandboxSwitches;
  // The sandbox's own default never refuses a search that names no page size: one rule for the command,
  // `createSandbox`, `PUT /_sandbox/switches` and a workspace's switches (our choice: refused, not lowered).
  if (switches.maxPageSize !== null && switches.defaultPageSize > switches.maxPageSize) {
    throw new TypeError(
      `--max-page-size ${switches.maxPageSize} is below --default-page-size ${switches.defaultPageSize}, so every search that sends no pageSize would be refused; give a --default-page-size of at most ${switches.maxPageSize} with it`,
    );
  }
  return switches;
}

/** The switches among options (a workspace's, which hold them with the rest): what a workspace keeps of them. */
export function switchesOf(options: SandboxSwitches): SandboxSwitches {
  return Object.fromEntries(switchDefinitions.map((definition) => [definition.key, options[definition.key]])) as unknown as SandboxSwitches;
}
