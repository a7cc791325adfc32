/** Names a value's JSON kind for error messages: `a string ("next Tuesday")`, `null`, `an array of 2`. */
export function describeValue(value: unknown): string {
  if (value == null) return value === null ? "null" : "nothing";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  const type = typeof value;
  if (type === "object") return `an object with keys ${JSON.stringify(Object.keys(value).slice(0, 5))}`;
  if (type === "string") return `a string (${JSON.stringify((value as string).length > 40 ? `${(value as string).slice(0, 40)}...` : value)})`;
  const shown = type === "number" || type === "boolean" ? ` (${value as number})` : "";
  return `a ${type === "number" && !Number.isFinite(value) ? "non-finite " : ""}${type}${shown}`;
}

/** Throws a `TypeError` naming `name` unless `value` is a string with more than white space. */
export function requireText(name: string, value: unknown): void {
  if (typeof value !== "string" || !value.trim()) throw new TypeError(`${name}: expected a non-empty string; got ${describeValue(value)}`);
}

/** True for a plain JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
