import { type SchemaError, schemaProblem } from "@bot-conversation/client/text";
import {
  type CompiledDescription,
  compileDescription,
  type OpenApiDescription,
  type OperationMatch,
  pointerKeys,
  pointerSegment,
  secretHeaders,
} from "@bot-conversation/openapi";
import { type DocumentValidator, documentValidator, type ErrorObject, type ValidateFunction } from "@bot-conversation/openapi/ajv";
import bundledControl from "./generated/sandbox-control.json" with { type: "json" };
import bundledService from "./generated/service.json" with { type: "json" };

/** One thing wrong with a request, a fixture or a value: where, and what was expected. */
export interface Defect {
  /** Where: a JSON path into a body (`$.bots[0].agentStageId`) or a parameter's place (`query.pageSize`). */
  readonly path: string;
  /** What was wrong and what was expected. */
  readonly message: string;
}

/** A JSON Schema 2020-12 schema as OpenAPI 3.1 writes it. */
export type SchemaObject = Record<string, unknown>;

/** A parameter of an operation, as the description declares it. */
export interface ParameterDescription {
  /** Parameter name. */
  readonly name: string;
  /** Where it is sent. */
  readonly in: "query" | "path" | "header" | "cookie";
  /** Whether it must be sent. */
  readonly required: boolean;
  /** Its schema, references resolved. */
  readonly schema: SchemaObject;
  /** The description's example value, when it gives one. */
  readonly example?: unknown;
}

/**
 * The service description bundled by `@bot-conversation/openapi`, imported as a JSON module (no file
 * system: the same code runs in a browser, where a bundler inlines it), as this package's build
 * writes it into `src/generated/`: without its prose (`scripts/descriptions.ts`), which no check reads.
 */
export const serviceDescription = bundledService as unknown as {
  paths: Record<string, Record<string, { operationId?: string; parameters?: unknown[]; requestBody?: { content: Record<string, { schema: SchemaObject }> } }>>;
  components: { schemas: Record<string, SchemaObject & { enum?: string[]; examples?: unknown[] }>; parameters: Record<string, unknown> };
};

/** The control API's description, bundled into `src/generated/` by this package's build, without its prose. */
export const controlDescription = bundledControl as unknown as typeof serviceDescription;

/** The headers that carry a secret (the descriptions' `X-Token`, HTTP's credentials): never journaled nor logged. */
export const sandboxSecretHeaders = secretHeaders(serviceDescription, controlDescription);

/** The service's description compiled by `@bot-conversation/openapi`: its operations with their path matchers, security and responses. */
export const compiledService: CompiledDescription = compileDescription(serviceDescription);

/** The control API's description, compiled the same way. */
export const compiledControl: CompiledDescription = compileDescription(controlDescription);

/** Whether a path is the control API's: under `/_sandbox/`, where the sandbox serves its description. */
export const isControlPath = (pathname: string): boolean => pathname.startsWith("/_sandbox/");

/** The description of a path: the control API's under `/_sandbox/`, else the service's. */
const compiledOf = (pathname: string): CompiledDescription => (isControlPath(pathname) ? compiledControl : compiledService);

/** The operation of a request among the service's and the control API's (a HEAD is its GET's), with its path parameters; `undefined` for none. */
export function sandboxOperationOf(method: string, pathname: string): OperationMatch | undefined {
  return compiledOf(pathname).operationOf(method, pathname);
}

/** The methods the service's or the control API's description gives a path (HEAD wherever GET is), as `Allow` writes them. */
export function sandboxMethodsOf(pathname: string): string[] {
  return compiledOf(pathname).methodsOf(pathname);
}

/**
 * Each description read and validated through `@bot-conversation/openapi` (its reader, its one Ajv), with Ajv's
 * `verbose` errors for `describeErrors`. The descriptions are this package's own bundles, linted by Redocly at
 * build: Ajv does not check them against JSON Schema's meta-schema again in every process (`validateSchema: false`,
 * about 70 ms of each process's first check).
 */
const documents = new Map<object, { reader: OpenApiDescription; validator: DocumentValidator }>(
  [compiledService, compiledControl].map(({ reader }) => [
    reader.document,
    { reader, validator: documentValidator(reader.document, { verbose: true, validateSchema: false }) },
  ]),
);

function documentOf(document: object): { reader: OpenApiDescription; validator: DocumentValidator } {
  const found = documents.get(document);
  if (!found) throw new Error("Not one of the sandbox's descriptions");
  return found;
}

/**
 * A compiled check of values against one schema: every defect, with paths under `root`; a wrong value at the
 * root is shown as `sent` when given (a query parameter's text, checked as the number it reads as).
 */
export type Checker = (value: unknown, root?: string, sent?: string) => Defect[];

/** The check of a schema of the service description (`{ $ref: "#/components/..." }` or inline), compiled once, on its first use. */
export function serviceChecker(schema: SchemaObject): Checker {
  return checker(schema, documentOf(serviceDescription).validator);
}

/** The check of a schema of the control API's description, compiled once, on its first use. */
export function controlChecker(schema: SchemaObject): Checker {
  return checker(schema, documentOf(controlDescription).validator);
}

/**
 * The workspace-name rule (`WorkspaceName` of the control description), the one a create request is held
 * to: every defect of a name, none when it is one. The CLI checks a name with it before sending anything.
 */
export const workspaceNameDefects: Checker = controlChecker({ $ref: "#/components/schemas/WorkspaceName" });

/** The enumeration of a schema of the service description, e.g. `ConversationStatus`. */
export function serviceEnum(name: string): readonly string[] {
  const values = documentOf(serviceDescription).reader.schema(name)["enum"];
  if (!Array.isArray(values)) throw new Error(`The description has no enumeration ${name}`);
  return values as string[];
}

/** An operation of the service: its `operationId`, method (upper case) and path as the description writes it (`{agentStageId}`). */
export interface ServiceOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
}

/** Every operation of the service, in the description's order: the one list the route table, the MSW handlers and the options read. */
export const serviceOperations: readonly ServiceOperation[] = compiledService.operations.map(({ id, method, path }) => ({
  operationId: id,
  method: method.toUpperCase(),
  path,
}));

/** The parameters of an operation of a description, references resolved. */
export function operationParameters(document: typeof serviceDescription, operationId: string): ParameterDescription[] {
  return documentOf(document)
    .reader.operation(operationId)
    .parameters.map(({ name, in: location, required, schema, example }) => ({ name, in: location, required, schema, example }));
}

/** The JSON request body schema of an operation. */
export function requestBodySchema(document: typeof serviceDescription, operationId: string): SchemaObject {
  const { reader } = documentOf(document);
  const { pointer } = reader.operation(operationId);
  const body = reader.resolveNode((reader.at(pointer) as { requestBody?: SchemaObject }).requestBody ?? {}) as {
    content?: Record<string, { schema?: SchemaObject }>;
  };
  const schema = body.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${operationId} has no JSON request body`);
  return schema;
}

/**
 * A schema's check, compiled on its first use: a start compiles none of the description's schemas (Ajv's
 * compiles were about 40% of a sandbox's start), and a process compiles only the checks its requests need.
 */
function checker(schema: SchemaObject, validator: DocumentValidator): Checker {
  let validate: ValidateFunction | undefined;
  return (value, root = "$", sent) => {
    validate ??= validator.compile(schema);
    return validate(value) ? [] : describeErrors(validate.errors ?? [], root, validator, sent);
  };
}

/**
 * Ajv's errors as defects, one per place and problem. Where a `oneOf` has a discriminator (an
 * activity's `type`, an event's `eventName`), only the variant the value names is reported: the
 * value is checked again against that variant alone, instead of listing why it is not each of the others.
 */
function describeErrors(errors: readonly ErrorObject[], root: string, validator: DocumentValidator, sent?: string): Defect[] {
  // Ajv reports a `oneOf` after the errors of its variants, so at one place the last is the outermost.
  const discriminated = errors
    .filter((error) => error.keyword === "oneOf" && isDiscriminated(error.parentSchema))
    .reverse()
    .sort((a, b) => a.instancePath.length - b.instancePath.length)
    .filter((error, index, all) => !all.slice(0, index).some((outer) => within(error.instancePath, outer.instancePath)));
  const explained = new Map<ErrorObject, Defect[]>();
  for (const error of discriminated) {
    const { propertyName, mapping } = (error.parentSchema as { discriminator: { propertyName: string; mapping: Record<string, string> } }).discriminator;
    const tag = (error.data as Record<string, unknown>)[propertyName];
    const at = toJsonPath(root, error.instancePath);
    const variant = typeof tag === "string" && Object.hasOwn(mapping, tag) ? mapping[tag] : undefined;
    explained.set(
      error,
      variant === undefined
        ? [
            defectOf(root, {
              keyword: "enum",
              instancePath: `${error.instancePath}/${pointerSegment(propertyName)}`,
              params: {},
              parentSchema: { enum: Object.keys(mapping) },
              data: tag,
            }),
          ]
        : checker({ $ref: variant }, validator)(error.data, at),
    );
  }
  const defects: Defect[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // A discriminated variant's defects take the place of its `oneOf`, so defects keep Ajv's order.
    defects.push(...(explained.get(error) ?? []));
    if (["oneOf", "anyOf", "if"].includes(error.keyword)) continue;
    if (discriminated.some((outer) => within(error.instancePath, outer.instancePath))) continue;
    // In a nullable `anyOf: [X, {type: "null"}]`, "must be null" only repeats that X failed.
    if (
      error.keyword === "type" &&
      error.schema === "null" &&
      errors.some((other) => other !== error && other.instancePath === error.instancePath && other.keyword !== "anyOf")
    )
      continue;
    const defect = defectOf(root, error, sent);
    if (!seen.has(`${defect.path} ${defect.message}`)) {
      seen.add(`${defect.path} ${defect.message}`);
      defects.push(defect);
    }
  }
  return defects;
}

function isDiscriminated(schema: unknown): boolean {
  const discriminator = (schema as { discriminator?: { mapping?: unknown } } | undefined)?.discriminator;
  return typeof discriminator?.mapping === "object";
}

function within(path: string, outer: string): boolean {
  return path === outer || path.startsWith(`${outer}/`);
}

/** A JSON path (`$.bots[0].agentStageId`, `query.pageSize`) from `root` and a JSON pointer under it. */
function toJsonPath(root: string, pointer: string): string {
  return pointerKeys(pointer).reduce(appendJsonPath, root);
}

/**
 * A schema error as a defect: the toolkit's one wording of it (`schemaProblem`: `expected an integer of at least 1;
 * got "0"`, `expected a non-empty string; got nothing`), its place as a path under `root`; a wrong value at the
 * root shown as `sent` when given.
 */
function defectOf(root: string, error: SchemaError, sent?: string): Defect {
  const problem = schemaProblem(error, sent === undefined ? {} : { sent });
  return { path: toJsonPath(root, problem.pointer), message: problem.message };
}

/** A JSON path one step deeper: `$.a` and `b` give `$.a.b`; an index gives `$.a[0]`; other keys `$.a["x y"]`. */
export function appendJsonPath(path: string, segment: string): string {
  if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
  return /^[A-Za-z_$][\w$]*$/.test(segment) ? `${path}.${segment}` : `${path}[${JSON.stringify(segment)}]`;
}

/**
 * The message of a value a schema refuses, found without a validator (a query parameter's text that is no
 * integer, one that is missing: `undefined`), in the one wording (`schemaProblem`): `expected an integer of at
 * least 1; got "ten"`, `got nothing`. The defect's path is its label (`query.pageSize: …`).
 */
export function wrongValueMessage(schema: SchemaObject, value: unknown): string {
  return schemaProblem({ keyword: "type", instancePath: "", params: {}, parentSchema: schema, data: value }).message;
}
