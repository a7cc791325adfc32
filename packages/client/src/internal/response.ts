import { apiErrorClass, BotConversationError, ConnectionError, OutcomeUnknownError, UnexpectedResponseError } from "../errors.js";
import type { BodyCheck, RequestOptions } from "./call-options.js";
import { describeValue } from "./describe.js";
import { reasonOf } from "./reason.js";
import { describeFailure, redactJson } from "./redact.js";
import type { Call } from "./transport.js";

/** What openapi-fetch resolves to when asked for `parseAs: "text"`. */
export interface TextResult {
  /** The 2xx body text; undefined when the response had none. */
  readonly data?: unknown;
  /** The failure body text, JSON-parsed when it is JSON. */
  readonly error?: unknown;
  /** The response. */
  readonly response: Response;
}

/**
 * Awaits an openapi-fetch call made with `parseAs: "text"`. A failure status becomes an `ApiError` with
 * a short reason from the body, a redirect an `ApiError` saying so (its `Location` on the redacted headers), a failed body read a
 * typed error; with `check`, the body is parsed as JSON (a body that is not JSON is an
 * `UnexpectedResponseError`, never a `SyntaxError`) and handed to it; without, only `expected` (200
 * unless given) resolves (the fire; a control route's 204). Every error is redacted with the tokens the call sent.
 */
export async function readResponse<T>(
  method: string,
  call: Call,
  pending: Promise<TextResult>,
  onResponse: RequestOptions["onResponse"],
  check: BodyCheck<T>,
  expected?: number,
): Promise<T>;
export async function readResponse(method: string, call: Call, pending: Promise<TextResult>, onResponse: RequestOptions["onResponse"]): Promise<void>;
export async function readResponse<T>(
  method: string,
  call: Call,
  pending: Promise<TextResult>,
  onResponse: RequestOptions["onResponse"],
  check?: BodyCheck<T>,
  expected = 200,
): Promise<T | undefined> {
  let result: TextResult;
  try {
    result = await pending;
  } catch (error) {
    const { response, tokens, path } = call;
    // The service said yes to a fire, then the body stalled or broke: saying "timed out" or "no response" would invite firing twice.
    const delivered = method === "POST" && response?.ok;
    // Before a response, only the client's own errors arrive here (typed failures, caller mistakes); after, the body read failed.
    if ((error instanceof BotConversationError || !response) && !delivered) throw error;
    const message = `${method} ${path} answered ${response!.status}, then failed: ${describeFailure(error, tokens)}`;
    throw delivered ? new OutcomeUnknownError(`${message}; outcome unknown`) : new ConnectionError(message);
  }
  const { response, data } = result;
  // The body has been read: the attempt's timeout has nothing left to cover.
  call.settle?.();
  const { status, headers } = response;
  const fail = (body: unknown, problem?: string, value?: unknown): never => {
    // A server may echo the token in a header or the body, and the problem may quote the body: all pass
    // through the call's redaction before anything is cut or kept.
    const { tokens } = call;
    const init = { method, path: call.path, status, headers: redactJson(Object.fromEntries(headers), tokens), body: redactJson(body, tokens) };
    throw problem
      ? new UnexpectedResponseError(init, ` but ${problem}; got ${describeValue(redactJson(value, tokens))}`)
      : // Below 400 here is a redirect (never followed, see the transport): 3xx, or the status 0 of a browser's opaque
        // redirect. Its `Location` stays on the error's (redacted) headers.
        new (apiErrorClass(status))(init, status < 400 ? ": a redirect, not followed" : reasonOf(init.body));
  };
  if (!response.ok) return fail(result.error);
  let checked: T | undefined;
  if (check) {
    let body: unknown;
    try {
      body = JSON.parse(data as string);
    } catch {
      return fail(data, "expected a JSON body", data);
    }
    checked = check(body, (problem, value) => fail(body, problem, value));
  } else if (status !== expected) fail(data, `expected ${expected}`, status);
  onResponse?.(response, data as string, checked);
  return checked;
}
