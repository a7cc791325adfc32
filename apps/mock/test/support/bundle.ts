import { readFileSync } from "node:fs";
import { readDescription } from "@bot-conversation/openapi";
import { documentValidator } from "@bot-conversation/openapi/ajv";
import { bundlePath } from "../../src/prism.ts";

/** The part of an OpenAPI document these tests read. */
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject | unknown>>;
  components: { examples: Record<string, { value: unknown }> };
}
interface MediaTypeObject {
  schema?: { $ref?: string };
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}
interface OperationObject {
  operationId: string;
  requestBody?: { content: Record<string, MediaTypeObject> };
  responses: Record<string, { $ref?: string; content?: Record<string, MediaTypeObject> }>;
}

/** One operation of the bundle with what a test needs to call it. */
export interface Operation {
  operationId: string;
  method: string;
  /** Path with every path parameter filled with a sample value. */
  path: string;
  /** First named request example, for operations with a body. */
  requestBody: unknown;
  /** Responses by status key (`200`, `404`, `4XX`). */
  responses: Record<string, MediaTypeObject | undefined>;
}

/** One named example of one response. */
export interface NamedResponseExample {
  operation: Operation;
  status: string;
  name: string;
  value: unknown;
}

/** The bundled description Prism serves, parsed. */
export const bundle = JSON.parse(readFileSync(bundlePath, "utf8")) as OpenApiDocument;

const httpMethods = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);
const sampleAgentStageId = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";

const tools = { resolve: readDescription(bundle).resolveNode, problemsOf: documentValidator(bundle).problemsOf };

/** Follows a local `#/...` reference inside the bundle; a node without `$ref` is returned as it is. */
export const resolveLocal = tools.resolve;

/** Value of a named example, following its `$ref`. */
export function exampleValue(example: { $ref?: string; value?: unknown }): unknown {
  return resolveLocal(example).value;
}

/** Every operation of the bundle. */
export const operations: Operation[] = Object.entries(bundle.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => httpMethods.has(method))
    .map(([method, value]) => {
      const operation = value as OperationObject;
      const requestExamples = operation.requestBody?.content["application/json"]?.examples ?? {};
      const firstRequestExample = Object.values(requestExamples)[0];
      return {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: path.replace("{agentStageId}", sampleAgentStageId),
        requestBody: firstRequestExample ? exampleValue(firstRequestExample) : undefined,
        responses: Object.fromEntries(
          Object.entries(operation.responses).map(([status, response]) => [status, resolveLocal(response).content?.["application/json"]]),
        ),
      };
    }),
);

/** Every named example of every response, across all operations. */
export const namedResponseExamples: NamedResponseExample[] = operations.flatMap((operation) =>
  Object.entries(operation.responses).flatMap(([status, media]) =>
    Object.entries(media?.examples ?? {}).map(([name, example]) => ({ operation, status, name, value: exampleValue(example) })),
  ),
);

/** Validates `value` against the schema of a media type; returns Ajv's errors as text, or `undefined` when valid. */
export function schemaErrors(media: MediaTypeObject, value: unknown): string | undefined {
  if (!media.schema?.$ref) throw new Error("These tests expect every response schema to be a component reference");
  const problems = tools.problemsOf(media.schema, value);
  return problems.length === 0 ? undefined : problems.join(", ");
}

/** A status key of the description as a concrete status Prism can be asked for (`4XX` becomes `400`). */
export function concreteStatus(status: string): number {
  return Number(status.replace(/XX$/, "00"));
}
