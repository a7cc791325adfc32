/** How a server shapes the trigger list, an open point: an array, one descriptor, an array wrapped in an object, or an object keyed by `externalEventId`. */
export type TriggerListShape = "array" | "single" | "wrapped" | "map" | "other";

/** Every shape a server may choose for the trigger list (all but `other`), in the order the kit names them. */
export const triggerListShapes = ["array", "single", "wrapped", "map"] as const satisfies readonly TriggerListShape[];

/** A trigger list body read whatever its shape: the shape, the descriptors, and the JSON pointer of the array when wrapped. */
export interface TriggerListBody {
  /** The shape seen. */
  readonly shape: TriggerListShape;
  /** The descriptors as sent (not yet validated). */
  readonly triggers: readonly unknown[];
  /** For `wrapped`, the property holding the array. */
  readonly property?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads a trigger list body. The seed shows the body "shaped as the descriptor" and calls it the list
 * of all triggers, wrapping "not shown": a JSON array, one descriptor (an object with
 * `externalEventId`), an object whose one array property holds the descriptors, and an object whose
 * every value is a descriptor under its own `externalEventId` (a map keyed by id) are all read.
 */
export function readTriggerList(body: unknown): TriggerListBody {
  if (Array.isArray(body)) return { shape: "array", triggers: body };
  if (!isObject(body)) return { shape: "other", triggers: [] };
  if ("externalEventId" in body) return { shape: "single", triggers: [body] };
  const arrays = Object.entries(body).filter(([, value]) => Array.isArray(value));
  if (arrays.length === 1) return { shape: "wrapped", triggers: arrays[0]![1] as unknown[], property: arrays[0]![0] };
  const entries = Object.entries(body);
  if (entries.length > 0 && entries.every(([key, value]) => isObject(value) && value["externalEventId"] === key))
    return { shape: "map", triggers: entries.map(([, value]) => value) };
  return { shape: "other", triggers: [] };
}
