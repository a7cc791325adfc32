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
 * CLI, the MCP server, the kit and the sandbox's 400s word every wrong value with it (`@bot-conversation/client/text`).
 */
export function wrongValueText(label: string, expected: string, shown: string): string {
  return `${label}: expected ${expected}; got ${shown}`;
}

/**
 * The same wording without its label, `expected an integer of at least 1; got 0`: the message of a defect
 * whose place is kept beside it (the sandbox's `errors[].path`), shown as `path: message`, which is
 * `wrongValueText(path, expected, shown)`.
 */
export function expectedButGot(expected: string, shown: string): string {
  // wrongValueText's one template, its empty label and colon cut off (so the main entry's budget carries no second function).
  return wrongValueText("", expected, shown).slice(2);
}

/** A JSON Schema as the description writes it, read for its words only. */
type SchemaWords = Readonly<Record<string, unknown>>;

/**
 * What a schema expects, in words: `an integer of at least 1`, `one of Active, Closed, Operator`, `an ISO
 * 8601 date-time such as 2026-11-20T09:15:02+03:00` (with an `example`), `a string, a number, true or false,
 * or an object` (of an `anyOf`), `a Member` (a `$ref` to `#/components/schemas/Member`, not followed). The `expected` of every wrong value the CLI, the MCP server and the
 * sandbox's 400s word from a schema.
 */
export function expectedOfSchema(schema: SchemaWords, example?: unknown): string {
  const such = example === undefined ? "" : ` such as ${String(example)}`;
  const alternatives = (schema["anyOf"] ?? schema["oneOf"]) as SchemaWords[] | undefined;
  if (Array.isArray(alternatives)) return orList(alternatives.map((alternative) => expectedOfSchema(alternative)));
  const type = schema["type"];
  if (Array.isArray(type)) return orList(type.map((each) => expectedOfSchema({ ...schema, type: each }, example)));
  if ("const" in schema) return JSON.stringify(schema["const"]);
  if (Array.isArray(schema["enum"])) return `one of ${schema["enum"].join(", ")}`;
  if (type === "integer") {
    const { minimum, maximum } = schema;
    if (typeof minimum === "number" && typeof maximum === "number") return `an integer from ${minimum} to ${maximum}`;
    return `an integer${typeof minimum === "number" ? ` of at least ${minimum}` : typeof maximum === "number" ? ` of at most ${maximum}` : ""}`;
  }
  if (type === "number") return "a number";
  if (type === "boolean") return "true or false";
  if (type === "object") return "an object";
  if (type === "array") return "an array";
  if (type === "null") return "null";
  if (schema["format"] === "date-time") return `an ISO 8601 date-time${such}`;
  // A reference the caller did not follow: named by the schema it points at (`a Member`).
  if (type === undefined && typeof schema["$ref"] === "string") {
    const name = schema["$ref"].split("/").at(-1) ?? "";
    return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
  }
  if (type === "string" && !(typeof schema["minLength"] === "number" && schema["minLength"] > 0)) return "a string";
  return "a non-empty string";
}

/** `a`, `a or b`, `a, b, or c`. */
function orList(each: readonly string[]): string {
  return each.length > 2 ? `${each.slice(0, -1).join(", ")}, or ${each.at(-1)}` : each.join(" or ");
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
