import { schemaProblem } from "@bot-conversation/client/text";
import { pointerKeys } from "@bot-conversation/openapi";
import { createAjv, type ErrorObject } from "@bot-conversation/openapi/ajv";
import type { Schema } from "../description.js";

/**
 * Values checked against the tools' schemas (arguments in, results out), each wrong one in the toolkit's one
 * wording of a schema error (`schemaProblem`), its place as an argument's name (`items.0.status`, `arguments` for
 * the whole): `pageSize: expected an integer of at least 1; got 0`.
 */
const ajv = createAjv({ verbose: true });
const validators = new WeakMap<Schema, ReturnType<typeof ajv.compile>>();

/** What each error says; one line per wrong value. */
function wordsOf(error: ErrorObject): string {
  const { pointer, message } = schemaProblem(error);
  return `${pointerKeys(pointer).join(".") || "arguments"}: ${message}`;
}

/**
 * The problems of a value against a schema (compiled once), one per wrong value, in the CLI's words;
 * empty when it is valid. Of an `anyOf` that fails, only its own line is said (naming every
 * alternative), not one line per alternative.
 */
export function problemsOf(schema: Schema, value: unknown): string[] {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
  if (validate(value)) return [];
  const byValue = new Map<string, ErrorObject>();
  for (const error of validate.errors ?? []) {
    // An error of a name's own schema (`propertyNames`): the `propertyNames` error says the same.
    if (error.propertyName !== undefined) continue;
    const named = error.params["missingProperty"] ?? error.params["additionalProperty"] ?? error.params["propertyName"];
    const key = `${error.instancePath}/${String(named ?? "")}`;
    if (!byValue.has(key) || error.keyword === "anyOf" || error.keyword === "oneOf") byValue.set(key, error);
  }
  return [...new Set([...byValue.values()].map(wordsOf))];
}

/** `value` when it fits the object schema; otherwise a `TypeError` naming each wrong value and what was expected. */
export function checked(schema: Schema, value: unknown): Record<string, unknown> {
  const problems = problemsOf(schema, value ?? {});
  if (problems.length > 0) throw new TypeError(problems.join("; "));
  return (value ?? {}) as Record<string, unknown>;
}
