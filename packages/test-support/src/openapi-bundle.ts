import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/** A JSON Schema 2020-12 schema as OpenAPI 3.1 writes it. */
export type SchemaObject = Record<string, unknown>;

/** Reading and validating against one bundled OpenAPI 3.1 description. */
export interface OpenApiBundle {
  /** The node a local reference such as `#/components/examples/X` points at. */
  dereference<T>(reference: string): T;
  /** `node` itself, or what its `$ref` points at, followed until a node without `$ref`. */
  resolve<T extends object>(node: T | { $ref: string }): T;
  /** Ajv's messages for `value` against a schema of the bundle (inline, or a `$ref` into it); empty when valid. */
  problemsOf(schema: SchemaObject, value: unknown): string[];
}

const documentId = "https://bot-conversation.invalid/openapi.json";

/** Tools over one bundled description: local references, and JSON Schema 2020-12 validation with formats. */
export function openApiBundle(document: object): OpenApiBundle {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: documentId }, documentId);

  const dereference = <T>(reference: string): T => {
    const node = reference
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((parent, key) => (parent as Record<string, unknown> | undefined)?.[key.replaceAll("~1", "/").replaceAll("~0", "~")], document);
    if (node === undefined) throw new Error(`Unresolved reference ${reference}`);
    return node as T;
  };
  const resolve = <T extends object>(node: T | { $ref: string }): T =>
    "$ref" in node && typeof node.$ref === "string" ? resolve(dereference<T | { $ref: string }>(node.$ref)) : (node as T);
  const rebase = (schema: SchemaObject): SchemaObject =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/', `"${documentId}#/`)) as SchemaObject;

  return {
    dereference,
    resolve,
    problemsOf(schema, value) {
      const validate = ajv.compile(rebase(schema));
      return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
    },
  };
}
