import type { ExternalEventTrigger, VariableType } from "@bot-conversation/types";
import { BotConversationError } from "./errors.js";
import { describeValue, isJsonObject } from "./internal/describe.js";

/** One thing wrong with a payload value. */
export interface PayloadProblem {
  /** Variable code, the key in `externalEventPayload`. */
  readonly variableCode: string;
  /** The type the trigger declares for it, or `null` when the trigger has no variable of this code. */
  readonly expectedType: VariableType | string | null;
  /** What was given, e.g. `a string ("next Tuesday")`. */
  readonly received: string;
  /** The problem in one sentence. */
  readonly message: string;
}

const isoDateTime = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** Whether a value has the format of a variable type, by the service's variable-type table. */
const formats: Record<VariableType, { readonly expected: string; readonly test: (value: unknown) => boolean }> = {
  String: { expected: "a string", test: (value) => typeof value === "string" },
  Number: { expected: "a finite number", test: (value) => typeof value === "number" && Number.isFinite(value) },
  Boolean: { expected: "true or false", test: (value) => typeof value === "boolean" },
  DateTime: {
    expected: "an ISO 8601 date-time string",
    test: (value) => typeof value === "string" && isoDateTime.test(value) && !Number.isNaN(Date.parse(value)),
  },
  ComplexObject: { expected: "a JSON object (not an array or null)", test: isJsonObject },
  PersonName: { expected: "a string holding a full name", test: (value) => typeof value === "string" },
  File: {
    expected: "an object { name, fileUrl } of two strings",
    test: (value) => isJsonObject(value) && typeof value["name"] === "string" && typeof value["fileUrl"] === "string",
  },
};

/** Checks a payload against a trigger's parameters; returns every problem (an empty array when it is valid). */
export function validateEventPayload(
  trigger: ExternalEventTrigger,
  payload: Readonly<Record<string, unknown>> | undefined,
): PayloadProblem[] {
  const problems: PayloadProblem[] = [];
  for (const [variableCode, value] of Object.entries(payload ?? {})) {
    const parameter = Object.hasOwn(trigger.parameters, variableCode) ? trigger.parameters[variableCode] : undefined;
    const received = describeValue(value);
    if (parameter === undefined) {
      problems.push({
        variableCode,
        expectedType: null,
        received,
        message: `${variableCode}: trigger ${trigger.externalEventId} has no variable with this code (got ${received})`,
      });
      continue;
    }
    const format = Object.hasOwn(formats, parameter.type) ? formats[parameter.type] : undefined;
    if (format === undefined) {
      problems.push({
        variableCode,
        expectedType: parameter.type,
        received,
        message: `${variableCode}: the trigger declares the unknown variable type ${JSON.stringify(parameter.type)}`,
      });
    } else if (!format.test(value)) {
      problems.push({
        variableCode,
        expectedType: parameter.type,
        received,
        message: `${variableCode}: expected ${parameter.type}, ${format.expected}; got ${received}`,
      });
    }
  }
  return problems;
}

/** A fire request does not fit the trigger it was checked against; nothing was sent. */
export class EventValidationError extends BotConversationError {
  override name = "EventValidationError";
  /** Every problem found in `externalEventPayload`. */
  readonly problems: readonly PayloadProblem[];
  /** Set when the request's `externalEventId` is not the trigger's. */
  readonly externalEventIdMismatch: { readonly expected: string; readonly received: string } | undefined;

  constructor(problems: readonly PayloadProblem[], externalEventIdMismatch?: { expected: string; received: string }) {
    const lines = problems.map((problem) => problem.message);
    if (externalEventIdMismatch) {
      lines.unshift(
        `externalEventId: expected ${JSON.stringify(externalEventIdMismatch.expected)} (the trigger's), got ${JSON.stringify(externalEventIdMismatch.received)}`,
      );
    }
    super(`The external event request does not fit its trigger:\n- ${lines.join("\n- ")}`);
    this.problems = problems;
    this.externalEventIdMismatch = externalEventIdMismatch;
  }
}

/** Builds the external conversation identifier of a conversation created in a platform line: `<SESSION_ID>|livechat`. */
export function platformConversationId(sessionId: string): string {
  if (typeof sessionId !== "string" || sessionId.trim() === "") {
    throw new TypeError(`platformConversationId needs a non-empty session identifier; got ${describeValue(sessionId)}`);
  }
  return `${sessionId}|livechat`;
}
