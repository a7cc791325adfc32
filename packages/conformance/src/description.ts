import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { schemaProblem } from "@bot-conversation/client/text";
import { pointerSegment, readDescription, type Schema } from "@bot-conversation/openapi";
import { documentValidator } from "@bot-conversation/openapi/ajv";

export type { Schema };

/** One parameter of an operation, with its reference resolved. */
export interface Parameter {
  /** Parameter name, e.g. `pageSize`. */
  readonly name: string;
  /** Where it goes: `query` or `path`. */
  readonly in: "query" | "path";
  /** Whether the description requires it. */
  readonly required: boolean;
  /** Its schema, references resolved at the top level. */
  readonly schema: Schema;
}

/** One documented response of an operation: a status (`200`), a range (`4XX`) or `default`. */
export interface DocumentedResponse {
  /** The key as the description writes it. */
  readonly key: string;
  /** Media types of its content; empty when the response has no body. */
  readonly mediaTypes: readonly string[];
  /** JSON pointer of the body schema of the first media type, when there is one. */
  readonly schemaPointer: string | undefined;
  /** Headers the description documents for this response. */
  readonly headers: readonly DocumentedHeader[];
}

/** One response header the description documents. */
export interface DocumentedHeader {
  /** Header name as written. */
  readonly name: string;
  /** Whether the description requires it. */
  readonly required: boolean;
  /** Its schema. */
  readonly schema: Schema;
  /** JSON pointer of its schema, for validation. */
  readonly schemaPointer: string | undefined;
}

/** One operation of the description. */
export interface Operation {
  /** operationId, e.g. `searchConversations`. */
  readonly id: string;
  /** HTTP method in capitals. */
  readonly method: "GET" | "POST";
  /** Path template, e.g. `/api/v1/runtime/simple/external/events/{agentStageId}`. */
  readonly path: string;
  /** Parameters of the path item and the operation. */
  readonly parameters: readonly Parameter[];
  /** JSON pointer of the request body's schema, when it takes a body. */
  readonly requestBodyPointer: string | undefined;
  /** Media types of the request body. */
  readonly requestMediaTypes: readonly string[];
  /** Documented responses by key. */
  readonly responses: ReadonlyMap<string, DocumentedResponse>;
}

/** One problem of a value against a schema: where, the JSON Schema keyword it came from, and the one wording of it. */
export interface ValueProblem {
  /** JSON pointer of the value (`/items/0/status`), a missing or unlisted property's name last; `/` for the value itself. */
  readonly pointer: string;
  /** The keyword that failed (`enum`, `const`, `type`, `format`, `required`, `additionalProperties`, …). */
  readonly keyword: string;
  /** `/items/0/status: expected one of Active, Closed, Operator; got a string`. */
  readonly text: string;
}

/** The bundled description, read and compiled once. */
export interface Description {
  /** The bundle as parsed JSON. */
  readonly document: Schema;
  /** Operations by operationId. */
  readonly operations: ReadonlyMap<string, Operation>;
  /** The node at a JSON pointer such as `#/components/schemas/ConversationStatus`, `$ref`s followed. */
  resolve(pointer: string): Schema;
  /** The pointer a chain of `$ref`s starting at `pointer` ends at. */
  pointerOf(pointer: string): string;
  /** The problems of `value` against the schema at `pointer`, in the toolkit's one wording (`/items/0/status: expected one of …; got a string`, values typed); empty when valid. */
  problemsOf(pointer: string, value: unknown): string[];
  /** The same problems as data: each one's JSON pointer, the JSON Schema keyword it came from, and its words (`problemsOf`'s). */
  problemsAt(pointer: string, value: unknown): ValueProblem[];
  /** The documented response for an actual status: the exact code, then its range (`4XX`), then `default`. */
  documentedResponse(operation: Operation, status: number): DocumentedResponse | undefined;
}

const require = createRequire(import.meta.url);

/** Where the bundle is read from: `openapi/dist/openapi.json`, built by `@bot-conversation/openapi`. */
export const descriptionPath = require.resolve("@bot-conversation/openapi/openapi.json");

/**
 * Reads the bundled description (through `@bot-conversation/openapi`'s reader) and compiles its schemas
 * on demand, each once, with the toolkit's one Ajv (`date-time` by the description's date rule).
 */
export function loadDescription(path = descriptionPath): Description {
  const document = JSON.parse(readFileSync(path, "utf8")) as Schema;
  const reader = readDescription(document);
  // verbose: the one wording of a schema error (`schemaProblem`) says what the schema expects from it.
  const validator = documentValidator(document, { validateFormats: true, verbose: true });
  const { resolve, pointerOf } = reader;

  const operations = new Map<string, Operation>();
  for (const { id, method, path, pointer: base, node: operation, parameters: declared } of reader.operations) {
    if (method !== "get" && method !== "post") continue;
    const parameters = declared.map(
      (parameter): Parameter => ({
        name: parameter.name,
        in: parameter.in as "query" | "path",
        required: parameter.required,
        schema: parameter.schema,
      }),
    );
    const requestContent = (operation["requestBody"] as { content?: Record<string, unknown> } | undefined)?.content ?? {};
    const requestMediaTypes = Object.keys(requestContent);
    const responses = new Map<string, DocumentedResponse>();
    for (const key of Object.keys(operation["responses"] as Schema)) {
      const responsePointer = pointerOf(`${base}/responses/${key}`);
      const content = (resolve(responsePointer)["content"] as Record<string, unknown> | undefined) ?? {};
      const headerNames = Object.keys((resolve(responsePointer)["headers"] as Record<string, unknown> | undefined) ?? {});
      const headers = headerNames.map((name): DocumentedHeader => {
        const headerPointer = pointerOf(`${responsePointer}/headers/${pointerSegment(name)}`);
        const header = resolve(headerPointer);
        const hasSchema = header["schema"] !== undefined;
        return {
          name,
          required: header["required"] === true,
          schema: hasSchema ? resolve(`${headerPointer}/schema`) : {},
          schemaPointer: hasSchema ? `${headerPointer}/schema` : undefined,
        };
      });
      const mediaTypes = Object.keys(content);
      const first = mediaTypes[0];
      const schemaPointer = first === undefined ? undefined : `${responsePointer}/content/${pointerSegment(first)}/schema`;
      responses.set(key, { key, mediaTypes, schemaPointer, headers });
    }
    const firstRequestType = requestMediaTypes[0];
    operations.set(id, {
      id,
      method: method.toUpperCase() as "GET" | "POST",
      path,
      parameters,
      requestBodyPointer: firstRequestType === undefined ? undefined : `${pointerOf(`${base}/requestBody`)}/content/${pointerSegment(firstRequestType)}/schema`,
      requestMediaTypes,
      responses,
    });
  }

  /** The problems of `value` against the schema at `pointer`, each said once, in the one wording (`schemaProblem`). */
  const problemsAt = (pointer: string, value: unknown): ValueProblem[] => {
    const validate = validator.compile(pointer);
    if (validate(value)) return [];
    // Values typed, never shown: a body may hold an end user's words.
    // An anyOf's, oneOf's or if's own error only sums up its branches' errors, which are said.
    const errors = (validate.errors ?? []).filter((error) => !["anyOf", "oneOf", "if"].includes(error.keyword));
    const problems = new Map<string, ValueProblem>();
    for (const error of errors) {
      const { pointer: place, message } = schemaProblem(error, { values: "types" });
      const text = `${place || "/"}: ${message}`;
      if (!problems.has(text)) problems.set(text, { pointer: place || "/", keyword: error.keyword, text });
    }
    return [...problems.values()];
  };

  return {
    document,
    operations,
    resolve,
    pointerOf,
    problemsOf: (pointer, value) => problemsAt(pointer, value).map((problem) => problem.text),
    problemsAt,
    documentedResponse(operation, status) {
      return operation.responses.get(String(status)) ?? operation.responses.get(`${String(status)[0]}XX`) ?? operation.responses.get("default");
    },
  };
}

let bundled: Description | undefined;

/**
 * The bundled description (`descriptionPath`), loaded once per process: its file is part of the installed
 * package, and each run of the kit shares its compiled schemas (twenty seeds side by side compile them
 * once, not twenty times).
 */
export function bundledDescription(): Description {
  bundled ??= loadDescription();
  return bundled;
}

/** The operation with this id, or an error naming it (the kit only knows the description's three). */
export function operationOf(description: Description, id: string): Operation {
  const operation = description.operations.get(id);
  if (!operation) throw new Error(`The description has no operation ${id}`);
  return operation;
}
