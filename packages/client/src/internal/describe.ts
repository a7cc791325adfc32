/** Names a value's JSON kind for error messages: `a string ("next Tuesday")`, `null`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case "string":
      return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`;
    case "number":
      return Number.isFinite(value) ? `a number (${value})` : `a non-finite number (${value})`;
    case "boolean":
      return `a boolean (${value})`;
    case "object":
      return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}`;
    default:
      return `a ${typeof value}`;
  }
}

/** True for a plain JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
