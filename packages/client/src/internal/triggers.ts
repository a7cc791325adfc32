import type { ExternalEventTrigger } from "@bot-conversation/types";
import type { BodyCheck } from "./call-options.js";
import { isJsonObject } from "./describe.js";

/** Whether a value looks like a trigger descriptor: `externalEventId` and `parameters` present. */
function isTrigger(value: unknown): value is ExternalEventTrigger {
  return isJsonObject(value) && typeof value["externalEventId"] === "string" && isJsonObject(value["parameters"]);
}

/**
 * The description declares a JSON array of triggers, but the service's text shows the body as one
 * descriptor: accept both (wrapping a single one), reject anything else naming the first bad value.
 */
export const toTriggerList: BodyCheck<ExternalEventTrigger[]> = (body, fail) => {
  const list: unknown[] = Array.isArray(body) ? body : [body];
  const invalid = list.findIndex((item) => !isTrigger(item));
  return invalid < 0 ? (list as ExternalEventTrigger[]) : fail("expected a trigger or an array of triggers", list[invalid]);
};
