/**
 * The sandbox's answers to the points the service leaves open. Each is a switch with a documented
 * default, so a team can test its client against every answer the real service might give. These
 * are the sandbox's own choices, not facts about the service.
 */

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
  /** The allowed values, or a description of them when they are open (a number, a text). */
  readonly values: readonly string[] | "positive integer" | "positive integer or none" | "text";
  /** The open point of the service this switch answers. */
  readonly point: string;
}

/** The defaults: the description's own reading where it has one, otherwise the most common practice. */
export const defaultSwitches: SandboxSwitches = {
  pageBase: 0,
  defaultPageSize: 20,
  maxPageSize: null,
  order: "startedOn-desc",
  statusCase: "exact",
  dateTo: "inclusive",
  unknownParameters: "reject",
  triggerList: "array",
  identifierWins: "conversationId",
  inboundDirection: "Inbound",
  errorMediaType: "application/json",
};

/** Every switch, in the order the README lists them. */
export const switchDefinitions: readonly SwitchDefinition[] = [
  { key: "pageBase", flag: "page-base", values: ["0", "1"], point: "Base of `pageIndex`" },
  { key: "defaultPageSize", flag: "default-page-size", values: "positive integer", point: "Default page size" },
  { key: "maxPageSize", flag: "max-page-size", values: "positive integer or none", point: "Maximum page size" },
  { key: "order", flag: "order", values: ["startedOn-desc", "startedOn-asc", "latestMessageOn-desc"], point: "Ordering of search items" },
  { key: "statusCase", flag: "status-case", values: ["exact", "insensitive"], point: "Letter case of `status` filter" },
  { key: "dateTo", flag: "date-to", values: ["inclusive", "exclusive"], point: "End of a date range" },
  { key: "unknownParameters", flag: "unknown-parameters", values: ["reject", "ignore"], point: "Unlisted query parameters" },
  { key: "triggerList", flag: "trigger-list", values: ["array", "single"], point: "Trigger list shape" },
  { key: "identifierWins", flag: "identifier-wins", values: ["conversationId", "externalConversationId"], point: "Both identifiers in a fire request" },
  { key: "inboundDirection", flag: "inbound-direction", values: "text", point: "Inbound direction spelling" },
  { key: "errorMediaType", flag: "error-media-type", values: ["application/json", "application/problem+json"], point: "Error body layout" },
];

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
      throw new TypeError(`${definition.key}: expected ${Array.isArray(definition.values) ? `one of ${definition.values.join(", ")}` : `a ${definition.values}`}; got ${JSON.stringify(value)}`);
    }
    checked[definition.key] = parsed;
  }
  return checked as unknown as SandboxSwitches;
}
