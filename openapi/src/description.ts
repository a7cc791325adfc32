/**
 * The one reader of an OpenAPI 3.1 document (the service's bundle, or the sandbox's control API):
 * operations by id, their parameters, schemas by name, and local `$ref`s followed. The sandbox, the
 * CLI, the MCP server, the conformance kit and the tests read the description through it, so a
 * reference is resolved one way everywhere. It takes the parsed document (no file system: the same
 * code runs in a browser).
 */

/** A JSON Schema 2020-12 schema, or any other object of the document, as OpenAPI 3.1 writes it. */
export type Schema = Record<string, unknown>;

/** Where a parameter is sent. */
export type ParameterLocation = "query" | "path" | "header" | "cookie";

/** One parameter of an operation, as the description declares it, its own `$ref` followed. */
export interface ParameterDescription {
  /** The description's name, e.g. `pageSize`. */
  readonly name: string;
  /** Where it is sent. */
  readonly in: ParameterLocation;
  /** Whether the description requires it. */
  readonly required: boolean;
  /** The description's text, when it has one. */
  readonly description: string | undefined;
  /** The description's example value, when it has one. */
  readonly example: unknown;
  /** Its schema, a top-level `$ref` followed (nested ones stay: see `dereference`). */
  readonly schema: Schema;
  /** JSON pointer of its schema, for a validator (`#/components/parameters/PageSize/schema`). */
  readonly schemaPointer: string;
}

/** One operation of the description. */
export interface OperationDescription {
  /** operationId, e.g. `searchConversations`. */
  readonly id: string;
  /** HTTP method in lower case, as the document keys it (`get`). */
  readonly method: string;
  /** Path template, e.g. `/api/v1/runtime/simple/external/events/{agentStageId}`. */
  readonly path: string;
  /** JSON pointer of the operation object (`#/paths/~1api~1.../get`). */
  readonly pointer: string;
  /** The operation object as written. */
  readonly node: Schema;
  /** Parameters of the path item, then the operation's own, in the description's order. */
  readonly parameters: readonly ParameterDescription[];
}

/** Reading one document. */
export interface OpenApiDescription {
  /** The document as given. */
  readonly document: Schema;
  /** Every operation, in the document's order. */
  readonly operations: readonly OperationDescription[];
  /** The operation with this id; an error naming it when there is none. */
  operation(id: string): OperationDescription;
  /** The schema `#/components/schemas/<name>` as written; an error naming it when there is none. */
  schema(name: string): Schema;
  /** The node at a JSON pointer such as `#/components/examples/X`, as written; an error naming the pointer when there is nothing. */
  at(pointer: string): unknown;
  /** The node at a pointer, a chain of `$ref`s followed to its end. */
  resolve(pointer: string): Schema;
  /** `node` itself, or what its `$ref` (and theirs) point at. */
  resolveNode<T extends object>(node: T | { $ref: string }): T;
  /** The pointer a chain of `$ref`s starting at `pointer` ends at (`pointer` itself when it holds no `$ref`). */
  pointerOf(pointer: string): string;
  /** A copy of a node with every local `$ref` replaced by what it points at, at any depth (the description's schemas are not recursive). */
  dereference<T>(node: T): T;
}

const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** One segment of a JSON pointer, escaped (RFC 6901): `~` as `~0`, `/` as `~1`. */
export const pointerSegment = (key: string): string => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** The JSON pointer of a path into the document: `jsonPointer("paths", "/a", "get")` is `#/paths/~1a/get`. */
export const jsonPointer = (...keys: readonly string[]): string => `#${keys.map((key) => `/${pointerSegment(key)}`).join("")}`;

/** The keys of a JSON pointer, unescaped: `#/paths/~1a/get` (or `/paths/~1a/get`, as Ajv's `instancePath`) is `["paths", "/a", "get"]`; `#` and `` are `[]`. */
export const pointerKeys = (pointer: string): string[] =>
  pointer
    .replace(/^#/, "")
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));

/** The reader of one parsed OpenAPI 3.1 document. */
export function readDescription(document: object): OpenApiDescription {
  const root = document as Schema;
  const find = (pointer: string): unknown => pointerKeys(pointer).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
  const at = (pointer: string): unknown => {
    const node = find(pointer);
    if (node === undefined) throw new Error(`The description has nothing at ${pointer}`);
    return node;
  };
  const referenceOf = (node: unknown): string | undefined => {
    const reference = (node as { $ref?: unknown } | null | undefined)?.$ref;
    return typeof reference === "string" ? reference : undefined;
  };
  const pointerOf = (pointer: string): string => {
    const reference = referenceOf(at(pointer));
    return reference === undefined ? pointer : pointerOf(reference);
  };
  const resolve = (pointer: string): Schema => at(pointerOf(pointer)) as Schema;
  const resolveNode = <T extends object>(node: T | { $ref: string }): T => {
    const reference = referenceOf(node);
    return reference === undefined ? (node as T) : (resolve(reference) as T);
  };
  const dereference = <T>(node: T): T => {
    if (Array.isArray(node)) return node.map(dereference) as T;
    if (typeof node !== "object" || node === null) return node;
    const { $ref, ...rest } = node as Record<string, unknown>;
    // Siblings of a `$ref` (OpenAPI 3.1 allows a `description` beside one) win over what it points at.
    const merged = typeof $ref === "string" ? { ...(dereference(at($ref)) as object), ...rest } : rest;
    return Object.fromEntries(Object.entries(merged).map(([key, value]) => [key, dereference(value)])) as T;
  };

  const operations: OperationDescription[] = [];
  for (const [path, item] of Object.entries((root["paths"] ?? {}) as Record<string, Schema>)) {
    for (const method of httpMethods) {
      const node = item[method] as Schema | undefined;
      if (!node) continue;
      const pointer = jsonPointer("paths", path, method);
      const parameterPointers = [
        ...((item["parameters"] as unknown[] | undefined) ?? []).map((_, index) => jsonPointer("paths", path, "parameters", String(index))),
        ...((node["parameters"] as unknown[] | undefined) ?? []).map((_, index) => `${pointer}/parameters/${index}`),
      ];
      const parameters = parameterPointers.map((parameterPointer): ParameterDescription => {
        const own = pointerOf(parameterPointer);
        const parameter = at(own) as Schema;
        const schemaPointer = pointerOf(`${own}/schema`);
        return {
          name: String(parameter["name"]),
          in: parameter["in"] as ParameterLocation,
          required: parameter["required"] === true,
          description: parameter["description"] as string | undefined,
          example: parameter["example"],
          schema: at(schemaPointer) as Schema,
          schemaPointer,
        };
      });
      operations.push({ id: String(node["operationId"]), method, path, pointer, node, parameters });
    }
  }

  return {
    document: root,
    operations,
    operation(id) {
      const found = operations.find((operation) => operation.id === id);
      if (!found) throw new Error(`The description has no operation ${id}`);
      return found;
    },
    schema(name) {
      const schema = find(jsonPointer("components", "schemas", name));
      if (schema === undefined) throw new Error(`The description has no schema ${name}`);
      return schema as Schema;
    },
    at,
    resolve,
    resolveNode,
    pointerOf,
    dereference,
  };
}
