import { apiErrorFor, BotConversationError, ConnectionError, UnexpectedResponseError } from "../errors.js";
import { describeValue, isJsonObject } from "./describe.js";
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
    throw error instanceof BotConversationError ? error : new ConnectionError(`${method} request failed: ${(error as Error).message}`, { cause: error });
  }
  const { response, data } = result;
  // The body has been read: the attempt's timeout has nothing left to cover.
  settleAttempt(response);
  const { status, headers } = response;
  const fail = (body: unknown, problem?: string): never => {
    // A server may echo the token in a header or the body, and the problem may quote the body: they pass
    // through JSON once, with each token sent replaced in every string and object key.
    const scrub = (text: string): string => {
      for (const token of tokens) text = text.replaceAll(token, "[redacted]");
      return text;
    };
    const [cleanHeaders, cleanBody, cleanProblem] = JSON.parse(JSON.stringify([Object.fromEntries(headers), body, problem]), (_key, value: unknown) =>
      typeof value === "string" ? scrub(value) : isJsonObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [scrub(key), item])) : value,
    ) as [Record<string, string>, unknown, string | null];
    const init = { method, path, status, headers: cleanHeaders, body: cleanBody };
    throw cleanProblem ? new UnexpectedResponseError(init, cleanProblem) : apiErrorFor(init);
  };
  if (!response.ok) return fail(result.error);
  if (!check) return undefined;
  const text = data as string;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(text, `expected a JSON body; got ${describeValue(text)}`);
  }
  return check(body, (problem) => fail(body, problem));
}
