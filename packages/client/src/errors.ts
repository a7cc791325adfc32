/** Errors of the client. Every one extends `BotConversationError`; none carries the access token. */

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

  /** `problem`: what is wrong with a successful response, e.g. `expected a JSON body; got "<h1>"`. */
  constructor(init: ApiErrorInit, problem?: string) {
    super(`${init.method} ${init.path} answered ${init.status}${problem ? ` but ${problem}` : ""}`);
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

/** A successful status with a body that is not what the operation returns (not JSON, wrong shape). */
export class UnexpectedResponseError extends ApiError {
  override name = "UnexpectedResponseError";
}

/** An attempt took longer than `timeoutMs`. */
export class TimeoutError extends BotConversationError {
  override name = "TimeoutError";
}

/** The request never got a response: refused, reset, DNS failure. */
export class ConnectionError extends BotConversationError {
  override name = "ConnectionError";
}

/** The caller's `AbortSignal` aborted the request. */
export class AbortError extends BotConversationError {
  override name = "AbortError";
}

/** The server's pages do not advance (the same `pageIndex` twice, or none), so iteration stopped. */
export class PaginationError extends BotConversationError {
  override name = "PaginationError";
}

/** Picks the `ApiError` subclass of a status. */
export function apiErrorFor(init: ApiErrorInit): ApiError {
  if (init.status === 401) return new AuthenticationError(init);
  if (init.status === 404) return new NotFoundError(init);
  if (init.status >= 500) return new ServerError(init);
  return new ApiError(init);
}
