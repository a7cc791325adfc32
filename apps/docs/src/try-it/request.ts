/**
 * What the "Try it" panel (`panel.ts`) sends and shows, apart from the page: the forms' shape as the
 * build writes it, the request a filled form makes, its curl line, and whether the page's policy
 * lets it be sent. Runs in the reader's browser and in the tests alike.
 */

/** One field of an operation's form: a parameter or a property of the JSON body. */
export interface TryItField {
  /** The parameter's or property's name, as sent. */
  name: string;
  /** Where the value goes. */
  in: "path" | "query" | "header" | "body";
  /** Required by the description. */
  required: boolean;
  /** A free text, a JSON value, or one of `choices`. */
  kind: "text" | "json" | "choice";
  /** The type in a few words (`string (date-time)`, `integer, at least 1`). */
  type: string;
  /** The values an enumeration allows. */
  choices?: string[];
  /** The description's example, shown as the field's placeholder. */
  example?: string;
}

/** One operation's form. */
export interface TryItOperation {
  /** The operation's id, as the placeholder names it. */
  operationId: string;
  /** Its summary. */
  summary: string;
  /** HTTP method, upper case. */
  method: string;
  /** Path template (`/api/v1/runtime/simple/external/events/{agentStageId}`). */
  path: string;
  /** Parameters first, then the body's properties. */
  fields: TryItField[];
  /** What the body's variants ask beyond the fields' own required marks. */
  bodyNote?: string;
}

/** A server the reader can pick. */
export interface TryItServer {
  /** Base address, without a trailing slash. */
  url: string;
  /** What it is. */
  label: string;
}

/** What the build gives the panel. */
export interface TryItConfig {
  /** Every operation's form. */
  operations: TryItOperation[];
  /** The servers offered, the default first; the reader may also type one. */
  servers: TryItServer[];
  /** Which token the offered servers take, shown beside the token field. */
  tokenHint: string;
}

/** The request a filled form makes. */
export interface TryItRequest {
  /** HTTP method. */
  method: string;
  /** Full address, with the query. */
  url: string;
  /** Headers, `X-Token` among them when a token is given. */
  headers: Record<string, string>;
  /** The JSON body, as sent. */
  body?: string;
}

/** A form that cannot make a request; the message names the field and what was expected. */
export class TryItInputError extends Error {}

/** The environment variable the curl line reads the token from. */
export const tokenVariable = "BOT_CONVERSATION_TOKEN";

/** Builds the request of a filled form; empty fields are left out. Throws `TryItInputError` before anything is sent. */
export function buildRequest(operation: TryItOperation, server: string, values: Readonly<Record<string, string>>, token: string): TryItRequest {
  let base: URL;
  try {
    base = new URL(server);
  } catch {
    throw new TryItInputError(`Server address: expected an http:// or https:// address; got ${JSON.stringify(server)}`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new TryItInputError(`Server address: expected an http:// or https:// address; got ${JSON.stringify(server)}`);
  if (base.search !== "" || base.hash !== "")
    throw new TryItInputError(`Server address: expected a base address, without ? or #; got ${JSON.stringify(server)}`);
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const field of operation.fields) {
    const value = values[field.name] ?? "";
    if (value === "") {
      if (field.in === "path") throw new TryItInputError(`${field.name}: required, it is part of the path; expected a value`);
      continue;
    }
    if (field.in === "path") path = path.replace(`{${field.name}}`, encodeURIComponent(value));
    else if (field.in === "query") query.append(field.name, value);
    else if (field.in === "header") headers[field.name] = value;
    else body[field.name] = field.kind === "json" ? parseJson(field, value) : value;
  }
  if (token !== "") headers["X-Token"] = token;
  const search = query.toString();
  const url = `${base.href.replace(/\/+$/, "")}${path}${search ? `?${search}` : ""}`;
  if (!operation.fields.some((field) => field.in === "body")) return { method: operation.method, url, headers };
  return { method: operation.method, url, headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

function parseJson(field: TryItField, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TryItInputError(`${field.name}: expected ${field.type}; ${(error as Error).message}`);
  }
}

/** A word for a POSIX shell, in single quotes. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The request as one curl command; the token is read from `$BOT_CONVERSATION_TOKEN`, never written out. */
export function curlLine(request: TryItRequest): string {
  const words = ["curl"];
  // curl sends POST when given --data; any other method with a body, or without one, is named.
  if (!(request.method === "GET" && request.body === undefined) && !(request.method === "POST" && request.body !== undefined))
    words.push("--request", request.method);
  words.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers))
    words.push("--header", name.toLowerCase() === "x-token" ? `"X-Token: $${tokenVariable}"` : shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) words.push("--data", shellQuote(request.body));
  return words.join(" ");
}

/** Whether the page's Content-Security-Policy lets it connect to `url` (the source forms the reference's policy uses: 'self', scheme://host, scheme://host:port, scheme://host:*). */
export function connectAllowed(url: string, policy: string, pageOrigin: string): boolean {
  const directives = policy.split(";").map((part) => part.trim().split(/\s+/));
  const directive = directives.find(([name]) => name === "connect-src") ?? directives.find(([name]) => name === "default-src");
  const target = new URL(url);
  return (directive?.slice(1) ?? []).some((source) => {
    if (source === "'self'") return target.origin === pageOrigin;
    const match = /^(https?):\/\/([^:/]+)(?::(\d+|\*))?$/.exec(source);
    if (!match) return false;
    const [, scheme, host, port] = match;
    const defaultPort = scheme === "https" ? "443" : "80";
    return target.protocol === `${scheme}:` && target.hostname === host && (port === "*" || (target.port || defaultPort) === (port ?? defaultPort));
  });
}

/** A response body as shown: JSON indented, anything else as it came. */
export function showBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
