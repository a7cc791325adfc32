/**
 * Shows a value in an error message as it would be written in JSON, cut at `max` characters (40 unless given):
 * `"next Tuesday"` (a string), `149.9`, `NaN`, `null`, `[]`, `{"first":"Pavel"}`; `undefined` and other
 * values with no JSON form (a function, a cyclic object) by their `typeof`.
 */
export function describeValue(value: unknown, max = 40): string {
  let shown: string | undefined;
  try {
    shown = typeof value === "number" || typeof value === "bigint" ? String(value) : JSON.stringify(value);
  } catch {
    // A cyclic object: named by its typeof below.
  }
  shown ??= typeof value;
  return shown.length > max ? `${shown.slice(0, max)}...` : shown;
}

/**
 * A wrong value in the toolkit's one wording: `pageSize: expected an integer of at least 1; got "ten"`
 * (`label`, what was `expected`, and the value as `shown`). The client's errors, its payload check, the
 * CLI and the MCP server word every wrong value with it (`@bot-conversation/client/text`).
 */
export function wrongValueText(label: string, expected: string, shown: string): string {
  return `${label}: expected ${expected}; got ${shown}`;
}

/** Throws the `TypeError` of a caller's mistake in `name`; the value is shown only when `show` (never a token or an address). */
export function mistake(name: string, expected: string, value: unknown, show?: unknown): never {
  throw new TypeError(wrongValueText(name, expected, show ? describeValue(value) : typeof value));
}

/** Throws a `TypeError` naming `name` unless `value` is a string with more than white space. */
export function requireText(name: string, value: unknown): void {
  if (typeof value !== "string" || !value.trim()) mistake(name, "a non-empty string", value, 1);
}

/** True for a plain JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}
