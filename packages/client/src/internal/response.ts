import { apiErrorFor, BotConversationError, ConnectionError, UnexpectedResponseError } from "../errors.js";
import { settleAttempt } from "./transport.js";

/** What openapi-fetch resolves to when asked for `parseAs: "text"`. */
export interface TextResult {
  /** The 2xx body text; undefined when the response had none. */
  readonly data?: unknown;
  /** The failure body text, JSON-parsed when it is JSON. */
  readonly error?: unknown;
  /** The response. */
  readonly response: Response;
}

/** Turns a 2xx body parsed as JSON into the operation's result; `fail` throws `UnexpectedResponseError` naming the problem. */
export type BodyCheck<T> = (body: unknown, fail: (problem: string) => never) => T;

/**
 * Awaits an openapi-fetch call made with `parseAs: "text"`. A failure status becomes an `ApiError`, a
 * failed body read a typed error; with `check`, the body is parsed as JSON (a body that is not JSON is
 * an `UnexpectedResponseError`, never a `SyntaxError`) and handed to it. Every error is redacted.
 */
export async function readResponse<T>(method: string, path: string, pending: Promise<TextResult>, tokens: ReadonlySet<string>, check: BodyCheck<T>): Promise<T>;
export async function readResponse(method: string, path: string, pending: Promise<TextResult>, tokens: ReadonlySet<string>): Promise<void>;
export async function readResponse<T>(
  method: string,
  path: string,
  pending: Promise<TextResult>,
  tokens: ReadonlySet<string>,
  check?: BodyCheck<T>,
): Promise<T | undefined> {
  let result: TextResult;
  try {
    result = await pending;
  } catch (error) {
    // The attempt aborts with typed reasons (timeout, caller), and a spec-compliant fetch fails the body read with them.
    throw error instanceof BotConversationError ? error : new ConnectionError(`${method} ${path} failed: ${(error as Error).message}`, { cause: error });
  }
  const { response, data } = result;
  // The body has been read: the attempt's timeout has nothing left to cover.
  settleAttempt(response);
  const { status, headers } = response;
  const fail = (problem: string | undefined, body: unknown): never => {
    const init = {
      method,
      path,
      status,
      headers: Object.fromEntries([...headers].map(([name, value]) => [name, redact(value, tokens)])),
      body: redact(body, tokens),
    };
    // The problem may quote the body, so the message is redacted too.
    throw problem ? new UnexpectedResponseError(init, redact(`${method} ${path} answered ${status} but ${problem}`, tokens)) : apiErrorFor(init);
  };
  if (!response.ok) return fail(undefined, result.error);
  if (!check) return undefined;
  const text = data as string;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(`expected a JSON body; received ${text ? `${text.length} characters of ${headers.get("content-type") ?? "no content type"}` : "an empty body"}`, text);
  }
  return check(body, (problem) => fail(problem, body));
}

/** `value` with every token the client sent replaced, wherever a server echoed it back (a JSON value is searched as JSON text). */
function redact<T>(value: T, tokens: ReadonlySet<string>): T {
  if (value === undefined) return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  let clean = text;
  for (const token of tokens) clean = clean.replaceAll(token, "[redacted]");
  return clean === text ? value : typeof value === "string" ? (clean as T) : (JSON.parse(clean) as T);
}
