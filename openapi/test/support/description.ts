import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { documentValidator } from "../../src/ajv.ts";
import { readDescription } from "../../src/description.ts";

/** A JSON Schema 2020-12 schema as OpenAPI 3.1 writes it. */
export type SchemaObject = Record<string, unknown>;

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
const reader = readDescription(description);
const validator = documentValidator(description);

/** Resolves a local `$ref` such as `#/components/examples/X` inside the bundle. */
export const resolve = <T>(reference: string): T => reader.at(reference) as T;

/** A node itself, or what its `$ref` points at. */
export const resolveIfReference = reader.resolveNode;

/** Validates a value against a schema of the bundle (a component name, or an inline schema that may `$ref` components); Ajv's messages, empty when valid. */
export function problemsOf(schema: string | SchemaObject, value: unknown): string[] {
  return validator.problemsOf(typeof schema === "string" ? { $ref: `#/components/schemas/${schema}` } : schema, value);
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

/** The search's parameter names in the bundle's order, each `$ref` looked up by hand (not by the reader some tests check): what a test of the search's parameters expects. */
export function searchParameterNames(): string[] {
  const search = description.paths["/api/v2/channels/conversations"]!["get"] as OperationObject;
  const components = (description as unknown as { components: { parameters: Record<string, ParameterObject> } }).components.parameters;
  return (search.parameters as (ParameterObject | { $ref: string })[]).map((parameter) =>
    "$ref" in parameter ? components[parameter.$ref.slice("#/components/parameters/".length)]!.name : parameter.name,
  );
}
