import type { ExternalEventPayload, ExternalEventTrigger } from "@bot-conversation/types";

/** What a fire form holds for one variable: the inputs' text (a File variable has two: `name` and `fileUrl`). */
export type VariableInputs = Readonly<Record<string, string>>;

/** A form value that cannot become a payload value, named by its variable. */
export class FormValueError extends Error {
  override name = "FormValueError";
}

/**
 * The value of one variable as the service's table of variable types writes it, from its inputs, or
 * `undefined` when the inputs are empty (the variable is not sent). Values are shaped by the type and
 * otherwise sent as entered, so the service judges them (a ComplexObject's JSON that is not an object
 * gets the service's 500 and its detail). A type the inbox does not know is sent as text.
 */
export function toVariableValue(type: string, inputs: VariableInputs): unknown {
  const text = inputs["value"]?.trim() ?? "";
  switch (type) {
    case "Number":
      return text === "" ? undefined : Number(text);
    case "Boolean":
      return text === "" ? undefined : text === "true";
    case "DateTime":
      // A datetime-local input holds local time without an offset: sent as the instant, in ISO 8601 (UTC).
      return text === "" ? undefined : new Date(text).toISOString();
    case "ComplexObject":
      if (text === "") return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new FormValueError("is not JSON");
      }
    case "File": {
      const name = inputs["name"]?.trim() ?? "";
      const fileUrl = inputs["fileUrl"]?.trim() ?? "";
      return name === "" && fileUrl === "" ? undefined : { name, fileUrl };
    }
    default:
      return text === "" ? undefined : text;
  }
}

/** The payload of a fire from the form: every variable the trigger declares and the form filled, by its type. */
export function toPayload(trigger: ExternalEventTrigger, form: Readonly<Record<string, VariableInputs>>): ExternalEventPayload {
  const payload: Record<string, unknown> = {};
  for (const [code, { name, type }] of Object.entries(trigger.parameters)) {
    try {
      const value = toVariableValue(type, form[code] ?? {});
      if (value !== undefined) payload[code] = value;
    } catch (error) {
      throw error instanceof FormValueError ? new FormValueError(`${name} (${code}) ${error.message}`) : error;
    }
  }
  return payload as ExternalEventPayload;
}
