import {
  AbortError,
  apiErrorFor,
  BotConversationError,
  ConnectionError,
  TimeoutError,
  UnexpectedResponseError,
} from "../errors.js";
import { settleAttempt } from "./attempts.js";

/** What openapi-fetch resolves to when asked for `parseAs: "text"`. */
export interface TextResult {
  /** The 2xx body text; undefined when the response had none. */
  readonly data?: unknown;
  /** The failure body text, JSON-parsed when it is JSON. */
  readonly error?: unknown;
  /** The response. */
  readonly response: Response;
}

/** Awaits an openapi-fetch call: a failure status becomes an `ApiError`, a thrown failure a typed error. */
export async function readResponse(method: string, path: string, pending: Promise<TextResult>, tokens: ReadonlySet<string>): Promise<TextResult> {
  let result: TextResult;
  try {
    result = await pending;
  } catch (error) {
    throw asClientError(error, method, path);
  }
  const response = result.response;
  // The body has been read: the attempt's timeout has nothing left to cover.
  settleAttempt(response);
  if (!response.ok) {
    throw apiErrorFor({ method, path, status: response.status, headers: redactHeaders(response.headers, tokens), body: redact(result.error, tokens) });
  }
  return result;
}

/** The 2xx body parsed as JSON; a body that is empty or not JSON throws `UnexpectedResponseError`. */
export function parseJson(method: string, path: string, result: TextResult, tokens: ReadonlySet<string>): unknown {
  const text = result.data as string | undefined;
  if (text) {
    try {
      return JSON.parse(text);
    } catch {
      // handled below: a non-JSON body is a typed error, never a SyntaxError
    }
  }
  const type = result.response.headers.get("content-type") ?? "no content type";
  return unexpectedResponse(method, path, result, tokens, `expected a JSON body; received ${text ? `${text.length} characters of ${type}` : "an empty body"}`, text);
}

/** Throws `UnexpectedResponseError` for a 2xx response, with the method, path and problem in the message. */
export function unexpectedResponse(method: string, path: string, result: TextResult, tokens: ReadonlySet<string>, problem: string, body: unknown): never {
  const { status, headers } = result.response;
  throw new UnexpectedResponseError(
    { method, path, status, headers: redactHeaders(headers, tokens), body: redact(body, tokens) },
    `${method} ${path} answered ${status} but ${problem}`,
  );
}

/** Maps what fetch or a body read threw to the client's errors. */
function asClientError(error: unknown, method: string, path: string): BotConversationError {
  // The transport aborts with typed reasons, and the body read fails with them too.
  if (error instanceof BotConversationError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  // A custom fetch may fail a body read with a plain DOMException instead.
  if (name === "TimeoutError") return new TimeoutError(`${method} ${path} timed out while reading the response`);
  if (name === "AbortError") return new AbortError(`${method} ${path} aborted by the caller`);
  return new ConnectionError(`${method} ${path} failed: ${(error as Error).message}`, { cause: error });
}

const redacted = "[redacted]";

/** Replaces every token the client sent, wherever a server echoed it back. */
function redact(value: unknown, tokens: ReadonlySet<string>): unknown {
  if (tokens.size === 0 || value === undefined) return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  let clean = text;
  for (const token of tokens) clean = clean.replaceAll(token, redacted);
  if (clean === text) return value;
  return typeof value === "string" ? clean : JSON.parse(clean);
}

/** Copies response headers into a plain record (lower-case names), redacting any echoed token. */
function redactHeaders(headers: Headers, tokens: ReadonlySet<string>): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = redact(value, tokens) as string;
  });
  return record;
}
