import { describeValue, wrongValueText } from "@bot-conversation/client/text";
import { triggerListShapes } from "./trigger-list.ts";
/**
 * The open-point decisions a team accepts for its own server (`--config`'s `decisions`): where the
 * service is silent and the server has chosen, the kit holds the server to its choice instead of
 * failing it for a behaviour the service allows.
 */
export interface AcceptedDecisions {
  /** Largest `pageSize` the server serves: larger values are not sent as valid, and one past it must be refused (4xx) or capped. */
  readonly maxPageSize?: number;
  /** Whether a date bound at an item's exact instant includes it: `inclusive` or `exclusive` (both bounds alike). */
  readonly dateRangeBounds?: "inclusive" | "exclusive";
  /** Shape of the trigger list the server has chosen (`array`, `single` descriptor, or `wrapped` in an object): any other shape then fails. */
  readonly triggerListShape?: (typeof triggerListShapes)[number];
  /** Media types of error bodies besides the documented ones, e.g. `application/problem+json`. */
  readonly errorMediaTypes?: readonly string[];
}

/** Every key of `AcceptedDecisions`, with the values it takes (for `--config` errors). */
export const decisionKeys: Readonly<Record<keyof AcceptedDecisions, string>> = {
  maxPageSize: "an integer of at least 1",
  dateRangeBounds: '"inclusive" or "exclusive"',
  triggerListShape: triggerListShapes
    .map((shape) => JSON.stringify(shape))
    .join(", ")
    .replace(/, ([^,]*)$/, " or $1"),
  errorMediaTypes: "an array of media types",
};

/** Reads accepted decisions from a parsed config, throwing a message naming the first bad field. */
export function parseDecisions(value: unknown, where: string): AcceptedDecisions {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(wrongValueText(where, "an object of decisions", describeValue(value)));
  const entries = value as Record<string, unknown>;
  for (const key of Object.keys(entries)) {
    if (!(key in decisionKeys)) throw new Error(`${where}.${key}: unknown decision; expected one of ${Object.keys(decisionKeys).join(", ")}`);
  }
  const bad = (key: keyof AcceptedDecisions): never => {
    throw new Error(`${where}.${key}: expected ${decisionKeys[key]}; got ${JSON.stringify(entries[key])}`);
  };
  const { maxPageSize, dateRangeBounds, triggerListShape, errorMediaTypes } = entries;
  if (maxPageSize !== undefined && !(Number.isInteger(maxPageSize) && (maxPageSize as number) >= 1)) bad("maxPageSize");
  if (dateRangeBounds !== undefined && dateRangeBounds !== "inclusive" && dateRangeBounds !== "exclusive") bad("dateRangeBounds");
  if (triggerListShape !== undefined && !(triggerListShapes as readonly string[]).includes(triggerListShape as string)) bad("triggerListShape");
  if (
    errorMediaTypes !== undefined &&
    !(Array.isArray(errorMediaTypes) && errorMediaTypes.every((type) => typeof type === "string" && /^[\w.+-]+\/[\w.+-]+$/.test(type)))
  ) {
    bad("errorMediaTypes");
  }
  return entries as AcceptedDecisions;
}
