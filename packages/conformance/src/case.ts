import type { ProbeFamily } from "./checks/family.ts";
import { type Authentication, credentialOf } from "./credentials.ts";
import { tokenPlaceholder } from "./redact.ts";

export { type Authentication, tokenFor, wrongToken } from "./credentials.ts";

/** One request the kit sends: an operation with concrete values (Schemathesis calls this a case). */
export interface Case {
  /** operationId of the description, or `export` for the optional export route. */
  readonly operationId: string;
  /** HTTP method. */
  readonly method: string;
  /** Path with its parameters filled in and encoded, e.g. `/api/v1/runtime/simple/external/events/bot-1`. */
  readonly path: string;
  /** Query parameters, as sent. */
  readonly query: Readonly<Record<string, string>>;
  /** JSON body of a POST, or undefined for none. */
  readonly body?: unknown;
  /** Which `X-Token` the request carries. */
  readonly authentication: Authentication;
  /** `Accept` header when not `application/json` (the `accept_negotiation` check). */
  readonly accept?: string;
  /** For a method the description does not list on the path: the methods it does list (`unsupported_method`). */
  readonly documentedMethods?: readonly string[];
  /** The probe family of the catalog the case belongs to (a family declared beside its check), when a phase sent it as one. */
  readonly family?: ProbeFamily;
  /** Query parameters already percent-encoded, appended as they are (an identifier with an encoded character). */
  readonly rawQuery?: Readonly<Record<string, string>>;
  /** The body's JSON text as sent, when it is not `JSON.stringify(body)` (an identifier with a JSON escape); `body` is what it means. */
  readonly rawBody?: string;
  /** Further request headers (a precondition such as `If-None-Match`), lower-case names. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How the body is framed on the wire: `chunked` (Transfer-Encoding, RFC 9112 §7.1) instead of a Content-Length. */
  readonly bodyFraming?: "chunked";
  /** The metamorphic relation that made this case from another (`relations.ts`): no relation is applied to it again. */
  readonly relation?: string;
}

/** The response to a case, read whole. */
export interface Exchange {
  /** The request. */
  readonly case: Case;
  /** HTTP status. */
  readonly status: number;
  /** Response headers. */
  readonly headers: Headers;
  /** Body as text, with the token replaced by `$BOT_CONVERSATION_TOKEN` should a server echo it (see `redact.ts`). */
  readonly text: string;
  /** Body parsed as JSON, or undefined when empty or not JSON. */
  readonly json: unknown;
  /** Whether the body parsed as JSON. */
  readonly isJson: boolean;
  /** Time from sending to the end of the body, in milliseconds. */
  readonly elapsedMs: number;
  /** Set when the body's bytes are not valid UTF-8 (`text` then holds replacement characters). */
  readonly invalidUtf8?: boolean;
}

/** The URL of a case under a base address (the base's own path is kept); `token` fills a query-string token. */
export function urlOf(baseUrl: string, request: Case, token = tokenPlaceholder): URL {
  const url = new URL(baseUrl.replace(/\/+$/, "") + request.path);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
  const carrier = credentialOf(request.authentication).query;
  if (carrier) url.searchParams.set(carrier, token);
  for (const [name, value] of Object.entries(request.rawQuery ?? {})) url.search += `${url.search ? "&" : "?"}${encodeURIComponent(name)}=${value}`;
  return url;
}

/** Media type of a response without its parameters, lower case: `application/json`, or `""` when absent. */
export function mediaTypeOf(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Quotes a word for a POSIX shell. */
const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A curl command that reproduces the case; the token is written `$BOT_CONVERSATION_TOKEN`, never its value. */
export function curlOf(baseUrl: string, request: Case): string {
  const parts = ["curl", "-sS", "-i"];
  if (request.method !== "GET" && request.method !== "HEAD") parts.push("-X", request.method);
  const credential = credentialOf(request.authentication);
  // Every form of the token is written by the shell from the variable, so the line never carries the value.
  if (credential.xTokenShell !== undefined) parts.push("-H", credential.xTokenShell === "" ? shellQuote("X-Token;") : `"X-Token: ${credential.xTokenShell}"`);
  if (credential.header) parts.push("-H", `"${credential.header.name}: ${credential.header.shell}"`);
  parts.push("-H", shellQuote(`Accept: ${request.accept ?? "application/json"}`));
  for (const [name, value] of Object.entries(request.headers ?? {})) parts.push("-H", shellQuote(`${name}: ${value}`));
  if (request.method === "HEAD") parts.push("--head");
  if (request.body !== undefined) parts.push("-H", shellQuote("Content-Type: application/json"), "--data", shellQuote(bodyTextOf(request)!));
  // curl sends the body chunked when told so by the header.
  if (request.bodyFraming === "chunked") parts.push("-H", shellQuote("Transfer-Encoding: chunked"));
  const url = urlOf(baseUrl, request, "TOKEN_IN_QUERY").href;
  // The query-string token is spliced in by the shell, so the line carries the variable, never the value.
  parts.push(credential.query ? `${shellQuote(url).replace("TOKEN_IN_QUERY", `'"${tokenPlaceholder}"'`)}` : shellQuote(url));
  return parts.join(" ");
}

/** The body's text as sent: the raw JSON text when the case has one. */
export const bodyTextOf = (request: Case): string | undefined => request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));

/** The request in one line for a failure: method, URL (token as `$BOT_CONVERSATION_TOKEN`) and body. */
export function requestLineOf(baseUrl: string, request: Case): string {
  const body = request.body === undefined ? "" : ` ${bodyTextOf(request)}`;
  const token =
    request.authentication === "token"
      ? "X-Token set"
      : credentialOf(request.authentication).what.replace(/^with(out)? /, (_, out: string | undefined) => (out ? "no " : ""));
  return `${request.method} ${urlOf(baseUrl, request).href}${body} (${token}${request.accept ? `, Accept: ${request.accept}` : ""})`;
}

/** Values of a case of an operation; the token is used unless `authentication` says otherwise. */
export interface CaseValues {
  /** Path parameters by name (encoded here). */
  readonly path?: Readonly<Record<string, string>>;
  /** Query parameters by name. */
  readonly query?: Readonly<Record<string, string>>;
  /** JSON body. */
  readonly body?: unknown;
  /** Which `X-Token` to send; `token` by default. */
  readonly authentication?: Authentication;
}

/** A case of an operation of the description, its path template filled in. */
export function caseFor(operation: { readonly id: string; readonly method: string; readonly path: string }, values: CaseValues = {}): Case {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values.path?.[name];
    if (value === undefined) throw new Error(`${operation.id}: no value for path parameter ${name}`);
    return encodeURIComponent(value);
  });
  return {
    operationId: operation.id,
    method: operation.method,
    path,
    query: values.query ?? {},
    authentication: values.authentication ?? "token",
    ...(values.body === undefined ? {} : { body: values.body }),
  };
}
