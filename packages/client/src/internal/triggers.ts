import type { ExternalEventTrigger } from "@bot-conversation/types";
import { describeValue, isJsonObject } from "./describe.js";

/** Whether a value looks like a trigger descriptor: `externalEventId` and `parameters` present. */
function isTrigger(value: unknown): value is ExternalEventTrigger {
  return isJsonObject(value) && typeof value["externalEventId"] === "string" && isJsonObject(value["parameters"]);
}

/**
 * The description declares a JSON array of triggers, but the service's text shows the body as one
 * descriptor: accept both (wrapping a single one), reject anything else naming what was received.
 */
export function toTriggerList(body: unknown, fail: (problem: string) => never): ExternalEventTrigger[] {
  if (isTrigger(body)) return [body];
  if (!Array.isArray(body)) {
    return fail(`expected a trigger descriptor or an array of them; received ${describeValue(body)}`);
  }
  const invalid = body.findIndex((item) => !isTrigger(item));
  if (invalid !== -1) {
    return fail(`item ${invalid} of the trigger list is not a trigger descriptor; received ${describeValue(body[invalid])}`);
  }
  return body as ExternalEventTrigger[];
}
