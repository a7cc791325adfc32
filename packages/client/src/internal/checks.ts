/**
 * Checks of what the caller passes, made before anything is sent: a mistake is a `TypeError` that names
 * the option or argument and what was expected, and never quotes a token or an address.
 */
import type { FireExternalEventRequest, SearchConversationsQuery } from "@bot-conversation/types";
import { isJsonObject, mistake, requireText } from "./describe.js";
import { isCount } from "./page.js";

/** Trims a token and checks it is one `X-Token` can carry (printable ASCII: Headers would quote a bad value). */
export function checkToken(value: unknown, name: string): string {
  return typeof value === "string" && /^[ -~]+$/.test((value = value.trim()))
    ? (value as string)
    : mistake(name, "a non-empty string of printable ASCII", value);
}

/** Checks the options of `createBotConversationClient`; returns the token, trimmed when it is a string. */
export function checkClientOptions(options: object): string | (() => unknown) {
  const { baseUrl, token } = options as Record<string, unknown>;
  // Not quoted in the message: it may hold a password.
  if (!/^https?:\/\/[^?#@]+$/.test(baseUrl as string)) mistake("baseUrl", "an http(s) URL, no credentials, query or fragment", baseUrl);
  for (const name of ["fetch", "logger"]) {
    const { [name]: value } = options as Record<string, unknown>;
    if (value !== undefined && typeof value !== "function") mistake(name, "a function", value);
  }
  // Node's timers hold at most 2^31 - 1 ms; a longer timeout would fire at once. Absent, each is within its range.
  for (const [name, min, max] of [
    ["timeoutMs", 1, 2 ** 31 - 1],
    ["maxRetries", 0, 100],
    ["maxResponseBytes", 1, 2 ** 40],
  ] as const) {
    const { [name]: value = min } = options as Record<string, unknown>;
    if (!(isCount(value) && (value as number) >= min && (value as number) <= max)) mistake(name, `a whole number from ${min} to ${max}`, value, 1);
  }
  return typeof token === "function" ? (token as () => unknown) : checkToken(token, "token");
}

/**
 * Checks a search query: each value a non-empty string or a whole number, as the query string carries
 * it. A `Date` is refused (as its type is at compile time) rather than dropped: pass `toISOString()`.
 * An object's value is named by its type only (`got object`): its JSON form would read like a string.
 */
export function checkQuery(query: SearchConversationsQuery): void {
  if (!isJsonObject(query)) mistake("query", "an object", query, 1);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && !(typeof value === "string" ? value.trim() : isCount(value))) {
      mistake(`query.${key}`, "a non-empty string or a whole number", value, typeof value !== "object");
    }
  }
}

/** Checks a path segment: non-empty, and not `.` or `..`, which would send the request to another path. */
export function checkSegment(name: string, value: unknown): void {
  requireText(name, value);
  if (/^\.\.?$/.test(value as string)) mistake(name, "an identifier", value, 1);
}

/** Checks a fire request: an `externalEventId`, and a conversation identifier (`conversationId`, else `externalConversationId`). */
export function checkFireRequest(request: FireExternalEventRequest): void {
  const field = (name: keyof FireExternalEventRequest): void => requireText(`request.${name}`, request?.[name]);
  field("externalEventId");
  field(request?.conversationId === undefined ? "externalConversationId" : "conversationId");
}

/**
 * The JSON text of a request body. What JSON cannot write (a bigint, a cycle) is a `TypeError` naming the
 * request; JSON's own rules apply otherwise (a `Date` becomes its ISO 8601 string).
 */
export function toJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new TypeError(`request: ${(error as Error).message}`);
  }
}
