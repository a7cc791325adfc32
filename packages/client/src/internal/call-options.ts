/** What one call of the client is given besides its parameters: the caller's options, and the check its body must pass. */

/** Per-call options. */
export interface RequestOptions {
  /** Aborts the call (including waits between retries, and getting the token). */
  readonly signal?: AbortSignal | undefined;
  /** Extra headers of this call, e.g. `{ Prefer: "code=404" }` for Prism; an `X-Token` among them is replaced by the token. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Called with the response of a successful call (status, headers, `x-request-id`; its body already read),
   * the body's text as read (within `maxResponseBytes`) and the call's checked result, before the call resolves.
   */
  readonly onResponse?: ((response: Response, text: string, result: unknown) => void) | undefined;
}

/**
 * Turns a 2xx body parsed as JSON into the operation's result. `fail` throws `UnexpectedResponseError`
 * with `problem` and the offending value, shown after redaction (so a cut never leaves part of a token).
 */
export type BodyCheck<T> = (body: unknown, fail: (problem: string, value: unknown) => never) => T;
