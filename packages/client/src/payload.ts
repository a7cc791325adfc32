import type { ExternalEventTrigger, VariableType } from "@bot-conversation/types";
import { parseDateTime } from "@bot-conversation/types";
import { BotConversationError } from "./errors.js";
import { describeValue, isJsonObject, requireText } from "./internal/describe.js";

/** One thing wrong with a payload value. */
export interface PayloadProblem {
  /** Variable code, the key in `externalEventPayload`. */
  readonly variableCode: string;
  /** The type the trigger declares for it, or `null` when the trigger has no variable of this code. */
  readonly expectedType: VariableType | null;
  /** What was given, e.g. `a string ("next Tuesday")`. */
  readonly received: string;
  /** The problem in one sentence. */
  readonly message: string;
}

const isString = (value: unknown): value is string => typeof value === "string";

/**
 * The one rule for dates, of search filters and of `DateTime` variables alike: an ISO 8601 date and
 * time with seconds and a UTC offset, as RFC 3339 profiles it (`2026-11-20T09:15:02+03:00`, `...Z`),
 * naming one instant; epoch milliseconds, or `NaN`. The description's own rule
 * (written once in `@bot-conversation/openapi/date-time`, carried by `@bot-conversation/types`), which the toolkit's Ajv checks `date-time` with too.
 */
export { parseDateTime };

/** Whether a value has the format of a variable type, by the service's variable-type table. */
const formats: Record<VariableType, (value: unknown) => unknown> = {
  String: isString,
  Number: Number.isFinite,
  Boolean: (value) => typeof value === "boolean",
  DateTime: (value) => !Number.isNaN(parseDateTime(value)),
  ComplexObject: isJsonObject,
  PersonName: (value) => isString(value) && value.trim(),
  // A file name with its extension, and a link to download it.
  File: (value) => isJsonObject(value) && /.\.\w+$/.test(value["name"] as string) && URL.canParse(value["fileUrl"] as string),
};

/**
 * Checks a payload against a trigger's parameters; returns every problem (an empty array when it is
 * valid). A variable of a type this client does not know (a newer service's type) is not checked: its
 * value passes as given and the service judges it, so a new type never blocks a fire (the client's choice).
 */
export function validateEventPayload(trigger: ExternalEventTrigger, payload: Readonly<Record<string, unknown>> | undefined): PayloadProblem[] {
  return Object.entries(payload ?? {}).flatMap(([variableCode, value]) => {
    // Object.prototype has no `type`: an inherited name such as `constructor` is not a variable either.
    const expectedType = trigger.parameters[variableCode]?.type ?? null;
    if (expectedType && (!Object.hasOwn(formats, expectedType) || formats[expectedType](value))) return [];
    const received = describeValue(value);
    return [
      {
        variableCode,
        expectedType,
        received,
        message: `${variableCode}: ${expectedType ? `expected ${expectedType}${expectedType === "File" ? " (name with extension, fileUrl a URL)" : ""}` : `not a variable of trigger ${trigger.externalEventId}`}; got ${received}`,
      },
    ];
  });
}

/** A fire request does not fit the trigger it was checked against; nothing was sent. The message has a line per problem. */
export class EventValidationError extends BotConversationError {
  override name = "EventValidationError";

  /** Every problem found in `externalEventPayload`. */
  // `declare`: set in the constructor, so no field initialiser is emitted.
  declare readonly problems: readonly PayloadProblem[];

  constructor(problems: readonly PayloadProblem[]) {
    // One line per problem, each naming its variable.
    super(problems.map((problem) => problem.message).join("\n"));
    this.problems = problems;
  }
}

/** Builds the external conversation identifier of a conversation created in a platform line: `<SESSION_ID>|livechat`. */
export function platformConversationId(sessionId: string): string {
  requireText("sessionId", sessionId);
  return `${sessionId}|livechat`;
}
