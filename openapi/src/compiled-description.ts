/**
 * A description compiled once into its operations, for every surface that answers, matches or checks
 * requests (the sandbox's routes and its metrics' label, the MSW handlers, the recorder): each operation
 * with its path template's matcher, its parameters (as `readDescription` gives them), its security
 * requirement and its responses; which operation a method and path are for, and which methods a path
 * answers. It is the only code of the toolkit that turns a path template into a matcher
 * (`parsePathTemplate`). It takes the parsed document, or its reader (no file system: the same code runs
 * in a browser).
 */
import { type OpenApiDescription, type OperationDescription, readDescription, type Schema } from "./description.js";
import { type PathTemplate, parsePathTemplate } from "./path-template.js";

/** One security scheme an operation accepts, by the name `components.securitySchemes` gives it. */
export interface SecuritySchemeUse {
  /** The scheme's name in the description (`XToken`). */
  readonly scheme: string;
  /** Its type: `apiKey`, `http`, `oauth2`, `openIdConnect` or `mutualTLS`. */
  readonly type: string;
  /**
   * The request header that carries the credential: an `apiKey` scheme's `name` when it is sent in a header
   * (`X-Token`), `Authorization` for an `http` scheme (RFC 9110); `undefined` otherwise.
   */
  readonly header: string | undefined;
  /** The scopes the requirement names (OAuth 2.0); empty for the others. */
  readonly scopes: readonly string[];
}

/**
 * Who may call an operation: its alternatives, any one of which is enough, each a list of schemes that must
 * all be satisfied. The operation's own `security`, else the document's; `[]` when it needs none; an
 * alternative `[]` (written `{}`) lets an anonymous request through.
 */
export type SecurityRequirement = readonly (readonly SecuritySchemeUse[])[];

/** One operation of a compiled description. */
export interface CompiledOperation extends OperationDescription {
  /** Its path template, parsed: `template.match(pathname)` gives the path parameters of a request's path. */
  readonly template: PathTemplate;
  /** Who may call it. */
  readonly security: SecurityRequirement;
  /** Its responses by status as the description keys them (`200`, `4XX`, `default`), each `$ref` followed. */
  readonly responses: ReadonlyMap<string, Schema>;
}

/** A request's method and path matched to an operation. */
export interface OperationMatch {
  /** The operation. */
  readonly operation: CompiledOperation;
  /** Its path parameters, by name, decoded. */
  readonly pathParameters: Readonly<Record<string, string>>;
}

/** How `operationOf` matches a request. */
export interface OperationOfOptions {
  /** Whether a HEAD is matched to its path's GET where the description names no HEAD (default `true`, as a server answers it). */
  readonly headAsGet?: boolean;
}

/** A description compiled once. */
export interface CompiledDescription {
  /** The reader it was compiled from. */
  readonly reader: OpenApiDescription;
  /** Every operation, in the document's order. */
  readonly operations: readonly CompiledOperation[];
  /** The document's own security requirement (its root `security`), which an operation without its own takes; `[]` when it has none. */
  readonly security: SecurityRequirement;
  /** The operation with this id; an error naming it when there is none. */
  operation(id: string): CompiledOperation;
  /**
   * The operation a request is for, by its method (any letter case) and its path as sent (percent-encoded,
   * without the query), with its path parameters decoded; a HEAD is its GET's where the path describes no
   * HEAD of its own (RFC 9110, 9.3.2), unless `options.headAsGet` is `false` (a surface that judges only the
   * methods the description names, as the recorder does); `undefined` when the description has none.
   */
  operationOf(method: string, pathname: string, options?: OperationOfOptions): OperationMatch | undefined;
  /**
   * The methods the description gives a path, in upper case as `Allow` writes them, with HEAD wherever GET is:
   * exactly those `operationOf` finds an operation for; `[]` for a path it does not have.
   */
  methodsOf(pathname: string): string[];
}

/** Compiles a parsed OpenAPI 3.1 document (or its reader): an error naming the template or the scheme when a path template or a security requirement cannot be read. */
export function compileDescription(document: object | OpenApiDescription): CompiledDescription {
  const reader = isReader(document) ? document : readDescription(document);
  const schemes = (reader.document["components"] as { securitySchemes?: Record<string, unknown> } | undefined)?.securitySchemes ?? {};
  const securityOf = (requirements: unknown, where: string): SecurityRequirement => {
    if (!Array.isArray(requirements)) throw new Error(`The description's security at ${where}: expected a list of requirements; got ${typeof requirements}`);
    return requirements.map((requirement: unknown, index) => {
      if (typeof requirement !== "object" || requirement === null || Array.isArray(requirement))
        throw new Error(`The description's security at ${where}/${index}: expected an object of scheme names; got ${JSON.stringify(requirement)}`);
      return Object.entries(requirement).map(([name, scopes]): SecuritySchemeUse => {
        if (!Object.hasOwn(schemes, name))
          throw new Error(`The description's security at ${where} names ${name}, which components.securitySchemes does not define`);
        const scheme = reader.resolveNode(schemes[name] as object) as { type?: unknown; in?: unknown; name?: unknown };
        const type = String(scheme.type);
        const header =
          type === "apiKey" && scheme.in === "header" && typeof scheme.name === "string" ? scheme.name : type === "http" ? "Authorization" : undefined;
        return { scheme: name, type, header, scopes: Array.isArray(scopes) ? scopes.map(String) : [] };
      });
    });
  };
  const documentSecurity = reader.document["security"] === undefined ? [] : securityOf(reader.document["security"], "#/security");
  const templates = new Map<string, PathTemplate>();

  const operations = reader.operations.map((operation): CompiledOperation => {
    const template = templates.get(operation.path) ?? parsePathTemplate(operation.path);
    templates.set(operation.path, template);
    const own = operation.node["security"];
    const responses = new Map(
      Object.entries((operation.node["responses"] ?? {}) as Record<string, object>).map(([status, response]) => [
        status,
        reader.resolveNode(response) as Schema,
      ]),
    );
    return {
      ...operation,
      template,
      security: own === undefined ? documentSecurity : securityOf(own, `${operation.pointer}/security`),
      responses,
    };
  });

  // Most requests name a path without parameters, written plain: found in one lookup. The others are split once and
  // tried on the templates of their method and number of segments, those with fewer parameters first (OpenAPI: a
  // concrete path is matched before a templated one).
  const exact = new Map(
    operations.filter((operation) => operation.template.parameterNames.length === 0).map((operation) => [key(operation.method, operation.path), operation]),
  );
  const candidates = new Map<string, CompiledOperation[]>();
  for (const operation of [...operations].sort((a, b) => a.template.parameterNames.length - b.template.parameterNames.length)) {
    const group = key(operation.method, String(operation.template.segmentCount));
    candidates.set(group, [...(candidates.get(group) ?? []), operation]);
  }
  const find = (method: string, pathname: string): OperationMatch | undefined => {
    const found = exact.get(key(method, pathname));
    if (found) return { operation: found, pathParameters: {} };
    const sent = pathname.split("/");
    for (const operation of candidates.get(key(method, String(sent.length))) ?? []) {
      const pathParameters = operation.template.matchSegments(sent);
      if (pathParameters) return { operation, pathParameters };
    }
    return undefined;
  };

  return {
    reader,
    operations,
    security: documentSecurity,
    operation(id) {
      const found = operations.find((operation) => operation.id === id);
      if (!found) throw new Error(`The description has no operation ${id}`);
      return found;
    },
    operationOf(method, pathname, options) {
      const lower = lowerCaseMethods.get(method) ?? method.toLowerCase();
      return find(lower, pathname) ?? (lower === "head" && options?.headAsGet !== false ? find("get", pathname) : undefined);
    },
    methodsOf(pathname) {
      const sent = pathname.split("/");
      const methods = new Set(
        operations.filter((operation) => operation.template.matchSegments(sent) !== undefined).map((operation) => operation.method.toUpperCase()),
      );
      if (methods.has("GET")) methods.add("HEAD");
      return [...methods];
    },
  };
}

const key = (method: string, path: string) => `${method} ${path}`;

/** HTTP's methods as requests spell them, in the document's lower case (a request's method is looked up, not lowered, on every call). */
const lowerCaseMethods = new Map(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"].map((method) => [method, method.toLowerCase()]));

function isReader(value: object): value is OpenApiDescription {
  return "operations" in value && "resolveNode" in value && typeof (value as { resolveNode: unknown }).resolveNode === "function";
}
