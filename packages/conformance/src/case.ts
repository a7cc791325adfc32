import { tokenPlaceholder } from "./redact.ts";

/**
 * How a request authenticates: with the configured token, with none, with a token that cannot be
 * valid, with an empty `X-Token`, with the token in the query string instead of the header, with the
 * token in another letter case, or with a space inside the token (after its first character).
 */
export type Authentication = "token" | "none" | "wrong" | "empty" | "query" | "case" | "spaced";

/** The `X-Token` an authentication sends for `token`, or undefined for none (`none`, `query`). */
export function tokenFor(authentication: Authentication, token: string): string | undefined {
  switch (authentication) {
    case "token":
      return token;
    case "wrong":
      return wrongToken;
    case "empty":
      return "";
    case "case":
      return [...token].map((character) => (character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase())).join("");
    case "spaced":
      return `${token.slice(0, 1)} ${token.slice(1)}`;
    default:
      return undefined;
  }
}

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
  /** The request names a bot, trigger or conversation the server does not have (a 404 may come before a 401: the seed states no order). */
  readonly unknownTarget?: boolean;
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

/** The query parameter that carries the token in an `authentication: "query"` case. */
export const tokenQueryParameter = "X-Token";

/** The URL of a case under a base address (the base's own path is kept); `token` fills a query-string token. */
export function urlOf(baseUrl: string, request: Case, token = tokenPlaceholder): URL {
  const url = new URL(baseUrl.replace(/\/+$/, "") + request.path);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
  if (request.authentication === "query") url.searchParams.set(tokenQueryParameter, token);
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
  if (request.method !== "GET") parts.push("-X", request.method);
  if (request.authentication === "token") parts.push("-H", `"X-Token: ${tokenPlaceholder}"`);
  if (request.authentication === "wrong") parts.push("-H", shellQuote(`X-Token: ${wrongToken}`));
  if (request.authentication === "empty") parts.push("-H", shellQuote("X-Token;"));
  // The variants of the token are made by the shell from the variable, so the line never carries the value.
  if (request.authentication === "case") parts.push("-H", `"X-Token: $(printf %s "${tokenPlaceholder}" | tr 'a-zA-Z' 'A-Za-z')"`);
  if (request.authentication === "spaced") parts.push("-H", `"X-Token: \${${tokenPlaceholder.slice(1)}:0:1} \${${tokenPlaceholder.slice(1)}:1}"`);
  parts.push("-H", shellQuote(`Accept: ${request.accept ?? "application/json"}`));
  if (request.body !== undefined) parts.push("-H", shellQuote("Content-Type: application/json"), "--data", shellQuote(JSON.stringify(request.body)));
  const url = urlOf(baseUrl, request, "TOKEN_IN_QUERY").href;
  // The query-string token is spliced in by the shell, so the line carries the variable, never the value.
  parts.push(request.authentication === "query" ? `${shellQuote(url).replace("TOKEN_IN_QUERY", `'"${tokenPlaceholder}"'`)}` : shellQuote(url));
  return parts.join(" ");
}

/** The request in one line for a failure: method, URL (token as `$BOT_CONVERSATION_TOKEN`) and body. */
export function requestLineOf(baseUrl: string, request: Case): string {
  const body = request.body === undefined ? "" : ` ${JSON.stringify(request.body)}`;
  const token = {
    token: "X-Token set",
    none: "no X-Token",
    wrong: "a wrong X-Token",
    empty: "an empty X-Token",
    query: "the token in the query string, no X-Token",
    case: "the token in another letter case",
    spaced: "the token with a space inside",
  }[request.authentication];
  return `${request.method} ${urlOf(baseUrl, request).href}${body} (${token}${request.accept ? `, Accept: ${request.accept}` : ""})`;
}

/** The token sent by `ignored_auth` as a wrong one: never a real token, so it is safe to print. */
export const wrongToken = "conformance-wrong-token";

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
