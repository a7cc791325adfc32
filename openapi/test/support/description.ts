import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/** Absolute path of the bundled description that every other package consumes. */
export const bundlePath = fileURLToPath(new URL("../../dist/openapi.json", import.meta.url));

/** The bundled description, parsed. */
export const description = JSON.parse(readFileSync(bundlePath, "utf8")) as OpenApiDocument;

/** The parts of an OpenAPI 3.1 document these tests read. */
export interface OpenApiDocument {
  info: { version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject | ParameterObject[]>>;
  components: {
    responses: Record<string, ResponseObject>;
    schemas: Record<string, SchemaObject>;
    examples: Record<string, ExampleObject>;
  };
}
/** An operation of the description. */
export interface OperationObject {
  operationId: string;
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject | { $ref: string }>;
}
/** A response, with its bodies by media type. */
export interface ResponseObject {
  content?: Record<string, MediaTypeObject>;
}
/** A parameter, inlined by the bundle or referenced. */
export interface ParameterObject {
  name: string;
  in: string;
  schema: SchemaObject;
  example?: unknown;
}
/** A request or response body. */
export interface MediaTypeObject {
  schema: SchemaObject;
  examples?: Record<string, ExampleObject | { $ref: string }>;
}
/** A named example. */
export interface ExampleObject {
  summary: string;
  value: unknown;
}
/** A JSON Schema 2020-12 schema as OpenAPI 3.1 writes it. */
export type SchemaObject = Record<string, unknown>;

const documentId = "https://bot-conversation.invalid/openapi.json";
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema({ $id: documentId, components: description.components }, documentId);

/** Resolves a local `$ref` such as `#/components/examples/X` inside the bundle. */
export function resolve<T>(reference: string): T {
  const node = reference
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((parent, key) => (parent as Record<string, unknown>)[key.replaceAll("~1", "/").replaceAll("~0", "~")], description);
  if (node === undefined) throw new Error(`Unresolved reference ${reference}`);
  return node as T;
}

/** A validator for a schema of the bundle: a component name, or an inline schema that may `$ref` components. */
export function validatorFor(schema: string | SchemaObject): ValidateFunction {
  const wrapped = typeof schema === "string" ? { $ref: `${documentId}#/components/schemas/${schema}` } : rebase(schema);
  return ajv.compile(wrapped);
}

/** Validates a value and returns Ajv's messages, empty when the value is valid. */
export function problemsOf(schema: string | SchemaObject, value: unknown): string[] {
  const validate = validatorFor(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`);
}

function rebase(schema: SchemaObject): SchemaObject {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${documentId}#/components/`)) as SchemaObject;
}

/** Every operation of the bundle with its path and method. */
export function operations(): { path: string; method: string; operation: OperationObject }[] {
  return Object.entries(description.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as OperationObject })),
  );
}

/** A deep copy, for tests that mutate an example. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
