import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { schemaProblem } from "@bot-conversation/client/text";
import { readDescription, type Schema } from "@bot-conversation/openapi";

export type { Schema };

/** One query parameter of an operation, its schema with every `$ref` resolved. */
export interface Parameter {
  /** The description's name, e.g. `pageSize`. */
  readonly name: string;
  /** The CLI flag: the kebab case of the name, e.g. `--page-size`. */
  readonly flag: string;
  /** The description's text. */
  readonly description: string;
  /** The description's example value. */
  readonly example: unknown;
  /** Its schema, references resolved. */
  readonly schema: Schema;
}

/** The bundled OpenAPI description (`@bot-conversation/openapi/openapi.json`), read by that package's reader. */
const reader = readDescription(JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@bot-conversation/openapi/openapi.json"), "utf8")) as Schema);

/** The bundled OpenAPI description. */
export const description = reader.document;

/** A copy of a node with every local `$ref` replaced by what it points at. */
export const dereference = reader.dereference;

/** A schema of the description by name, references resolved. */
export function schemaOf(name: string): Schema {
  return reader.dereference(reader.schema(name));
}

/** The query and path parameters of an operation, by `operationId`, in the description's order. */
export function parametersOf(operationId: string): Parameter[] {
  return reader.operation(operationId).parameters.map((parameter) => ({
    name: parameter.name,
    flag: `--${parameter.name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
    description: parameter.description ?? "",
    example: parameter.example,
    schema: reader.dereference(parameter.schema),
  }));
}

/**
 * A wrong value in the toolkit's one wording of a schema error (`schemaProblem`, what the schema expects and what
 * came), labelled: `--page-size: expected an integer of at least 1; got "ten"` (`got nothing` for a missing one),
 * the parameter's `example` after `such as`.
 */
export function mismatch(label: string, schema: Schema, value: unknown, example?: unknown): string {
  const parentSchema = example === undefined ? schema : { ...schema, examples: [example] };
  return `${label}: ${schemaProblem({ keyword: "type", instancePath: "", params: {}, parentSchema, data: value }).message}`;
}

/** The toolkit's Ajv (`date-time` by the description's date rule), loaded on first use: a search whose flags need no schema check (an integer) starts without it. */
let ajv: Promise<import("@bot-conversation/openapi/ajv").Ajv2020> | undefined;
const validators = new Map<Schema, Promise<(value: unknown) => boolean>>();

async function validatorOf(schema: Schema): Promise<(value: unknown) => boolean> {
  ajv ??= import("@bot-conversation/openapi/ajv").then(({ createAjv }) => createAjv());
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.then((instance) => instance.compile(schema))));
  return validate;
}

/**
 * Reads a parameter's value from text by its schema (an integer from digits only, within its
 * `minimum`; anything else as a string, checked against the schema by Ajv); a `TypeError` names the
 * parameter and what was expected.
 */
export async function parameterValue(parameter: Parameter, text: string, label: string = parameter.flag): Promise<string | number> {
  const fail = (): never => {
    throw new TypeError(mismatch(label, parameter.schema, text, parameter.example));
  };
  const { type, minimum } = parameter.schema;
  if (type === "integer") {
    const value = /^-?\d+$/.test(text) ? Number(text) : fail();
    return Number.isSafeInteger(value) && (typeof minimum !== "number" || value >= minimum) ? value : fail();
  }
  if (!text.trim()) fail();
  return (await validatorOf(parameter.schema))(text) ? text : fail();
}
