/**
 * `@bot-conversation/openapi/ajv`: the one Ajv of the toolkit. Every surface that checks a value
 * against the description (the sandbox, the CLI's flags, the MCP tools, the conformance kit, the
 * tests) builds its validator here, so `format: date-time` means the same everywhere: the description's
 * date rule, `parseDateTime` (ajv-formats' own `date-time` accepts `+03`, a space for the `T` and
 * `23:59:60`, which that rule refuses).
 */
import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parseDateTime } from "./date-time.js";
import type { Schema } from "./description.js";

export type { Ajv2020, ErrorObject, Options as AjvOptions, ValidateFunction };

/**
 * A JSON Schema 2020-12 validator: Ajv2020 with ajv-formats' formats, `date-time` by `parseDateTime`,
 * `strict: false` (OpenAPI keywords such as `example` and `discriminator` are not JSON Schema's) and
 * `allErrors: true`; `options` add to or override these.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, ...options });
  addFormats.default(ajv);
  ajv.addFormat("date-time", { type: "string", validate: (text: string) => !Number.isNaN(parseDateTime(text)) });
  return ajv;
}

/** Checks values against the schemas of one document. */
export interface DocumentValidator {
  /**
   * The compiled check (compiled once) of a schema of the document: a JSON pointer into it
   * (`#/components/schemas/ConversationSummary`), or an inline schema whose local `$ref`s point into it.
   */
  compile(schema: string | Schema): ValidateFunction;
  /**
   * Ajv's problems of `value` against such a schema, in Ajv's own words, one `instancePath message` each (`/pageSize
   * must be >= 1`); empty when valid. What a person reads is worded by `@bot-conversation/client/text`'s `schemaProblem`.
   */
  problemsOf(schema: string | Schema, value: unknown): string[];
}

let documents = 0;

/** A validator of values against the schemas of one OpenAPI 3.1 document, on `createAjv(options)`. */
export function documentValidator(document: object, options: Options = {}): DocumentValidator {
  // Each document gets an id of its own, so that two documents can never answer for each other.
  const documentId = `https://bot-conversation.invalid/document-${(documents += 1)}.json`;
  // Ajv and the document (checked against JSON Schema's meta-schema as it is added, most of the cost)
  // are made at the first compile: a process that never checks a value never pays for them.
  let ajv: Ajv2020 | undefined;
  const documentAjv = (): Ajv2020 => {
    if (ajv === undefined) {
      ajv = createAjv(options);
      ajv.addSchema({ ...document, $id: documentId }, documentId);
    }
    return ajv;
  };
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: string | Schema): ValidateFunction => {
    const key = typeof schema === "string" ? schema : JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      // An inline schema's local references (`"#/components/..."`) are made to point into the document.
      const rebased = typeof schema === "string" ? { $ref: `${documentId}${schema}` } : (JSON.parse(key.replaceAll('"#/', `"${documentId}#/`)) as Schema);
      compiled.set(key, (validate = documentAjv().compile(rebased)));
    }
    return validate;
  };
  return {
    compile,
    problemsOf(schema, value) {
      const validate = compile(schema);
      return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`.trim());
    },
  };
}
