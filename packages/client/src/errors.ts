/**
 * Errors of the client. Every one extends `BotConversationError`; none carries the access token, in any
 * form (message, stack, `JSON.stringify`, `util.inspect`), and none keeps a raw cause, only a redacted summary.
 */

/** Base of every error the client throws. */
export class BotConversationError extends Error {
  override name = "BotConversationError";

  /** A plain, secret-free form for `JSON.stringify` and structured logs (`name` is an own field already). */
  toJSON(): object {
    return { ...this, message: this.message };
  }
}

/** What an `ApiError` is built from. */
export interface ApiErrorInit {
  /** HTTP status of the response. */
  readonly status: number;
  /** HTTP method of the request. */
  readonly method: string;
  /** Path of the request, without the base address. */
  readonly path: string;
  /** Response headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** Response body: parsed JSON, or the raw text when it is not JSON. */
  readonly body: unknown;
}

/** The service answered with a status or a body the client cannot use. */
export class ApiError extends BotConversationError {
  override name = "ApiError";
  // `declare`: the fields are set by Object.assign below, so no field initialisers are emitted.
  /** HTTP status of the response. */
  declare readonly status: number;
  /** HTTP method of the request. */
  declare readonly method: string;
  /** Path of the request, without the base address. */
  declare readonly path: string;
  /** Response headers, names in lower case. */
  declare readonly headers: Readonly<Record<string, string>>;
  /** The `x-request-id` response header, when the server sends one. */
  declare readonly requestId: string | undefined;
  /** Response body: parsed JSON, or the raw text when it is not JSON. */
  declare readonly body: unknown;

  /** `detail`: the rest of the message after the status, e.g. `: Request query parameter status must be …` or ` but expected a JSON body; got "<h1>"`. */
  constructor(init: ApiErrorInit, detail = "") {
    super(`${init.method} ${init.path} answered ${init.status}${detail}`);
    Object.assign(this, init);
    this.requestId = init.headers["x-request-id"];
  }
}

/** 401: the token is missing or invalid. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}

/** 404: no bot, trigger or conversation with the given identifier. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}

/** 500 and other 5xx; on firing an event, a 500 means the variable values failed validation. */
export class ServerError extends ApiError {
  override name = "ServerError";

  /** The details the body carries (for a failed payload validation, the reasons). */
  get details(): unknown {
    return this.body;
  }
}

/** A successful status the operation does not document, or a body that is not what it returns (not JSON, wrong shape). */
export class UnexpectedResponseError extends ApiError {
  override name = "UnexpectedResponseError";
}

/**
 * A fire request reached the service, which answered with a success status, but the rest of the
 * response failed (stalled past `timeoutMs`, reset, aborted): the event was most likely fired, and
 * whether it was is unknown. Check before firing again: firing twice runs the scenario twice. The
 * message names the status received.
 */
export class OutcomeUnknownError extends BotConversationError {
  override name = "OutcomeUnknownError";
}

/** An attempt (getting the token included) took longer than `timeoutMs`. */
export class TimeoutError extends BotConversationError {
  override name = "TimeoutError";
}

/** The request got no response, or its body failed: refused, reset, DNS failure. The message summarises the cause. */
export class ConnectionError extends BotConversationError {
  override name = "ConnectionError";
}

/** The caller's `AbortSignal` aborted the request. */
export class AbortError extends BotConversationError {
  override name = "AbortError";
}

/** A page is not the one asked for (the same `pageIndex` again, an earlier or a later one), so iteration stopped before yielding it. */
export class PaginationError extends BotConversationError {
  override name = "PaginationError";
}

/**
 * A response body passed `maxResponseBytes` (by its `Content-Length`, or as it arrived): it was not
 * read further. The message names the operation, the status and the limit.
 */
export class ResponseTooLargeError extends BotConversationError {
  override name = "ResponseTooLargeError";
}

/** The `ApiError` subclass of a status. */
export const apiErrorClass = (status: number): typeof ApiError =>
  status === 401 ? AuthenticationError : status === 404 ? NotFoundError : status > 499 ? ServerError : ApiError;
