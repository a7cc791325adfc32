import { AbortError, ConnectionError, TimeoutError } from "../errors.js";
import { isRetryableStatus, retryDelay } from "../retry.js";

/** Access token, or a function (sync or async) called before every attempt so a token can be refreshed. */
export type TokenSource = string | (() => string | Promise<string>);

/** Settings of the fetch wrapper that openapi-fetch sends every request through: the client's own options. */
export interface TransportOptions {
  /** Access token sent as `X-Token`. */
  readonly token: TokenSource;
  /** The underlying fetch; default the global `fetch`, looked up at each call. */
  readonly fetch?: ((request: Request, init?: RequestInit) => Promise<Response>) | undefined;
  /** Per-attempt timeout in ms; default 60 000. */
  readonly timeoutMs?: number | undefined;
  /** Retries of a GET after the first attempt; default 2. */
  readonly maxRetries?: number | undefined;
}

/** How the transport waits between attempts; an object so tests can replace it. */
export const retryTiming = {
  /** Waits `ms`; resolves early when `signal` aborts (the attempt loop then throws `AbortError`). */
  sleep: (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => resolve(clearTimeout(timer)), { once: true });
    }),
};

/** Where a response keeps the cleanup of the attempt that produced it, until its body has been read. */
const settleKey = Symbol("settle");

/** Ends the timeout of the attempt that produced `response`: its body has been read. */
export function settleAttempt(response: Response): void {
  (response as { [settleKey]?: () => void })[settleKey]?.();
}

/**
 * Builds the fetch given to openapi-fetch: token, per-attempt timeout, typed failures and GET retries.
 * Each attempt has one AbortController, aborted with a typed reason by a timer or by the caller's
 * signal, so fetch and the body read reject with the error to throw. The timer keeps running after the
 * response arrives, so the body read is covered, until `settleAttempt`; it is unref'd so it never holds
 * a Node process open (a body read through `raw` is never settled: its timer just fires harmlessly).
 */
export function createTransport(
  { token, fetch = (request, init) => globalThis.fetch(request, init), timeoutMs = 60_000, maxRetries = 2 }: TransportOptions,
  /** Every token value sent (the last few), so errors can redact them. */
  sentTokens: Set<string>,
): (request: Request) => Promise<Response> {
  return async function send(request: Request): Promise<Response> {
    const { signal: caller, method } = request;
    const retries = method === "GET" ? maxRetries : 0;
    const aborted = (): AbortError => new AbortError(`${method} request aborted by the caller`);
    for (let tries = 0; ; tries++) {
      // Checked before every attempt, so an abort during the wait before a retry ends the loop too.
      if (caller.aborted) throw aborted();
      const value = typeof token === "string" ? token : await token();
      // Remember what was sent so error bodies and headers that echo it can be redacted.
      if (!sentTokens.has(value)) {
        if (sentTokens.size >= 8) sentTokens.clear();
        if (value) sentTokens.add(value);
      }
      request.headers.set("X-Token", value);
      const attempt = new AbortController();
      const onAbort = (): void => attempt.abort(aborted());
      const timer = setTimeout(() => attempt.abort(new TimeoutError(`${method} request timed out after ${timeoutMs} ms`)), timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      caller.addEventListener("abort", onAbort);
      const settle = (): void => {
        clearTimeout(timer);
        caller.removeEventListener("abort", onAbort);
      };
      let response: Response | undefined;
      try {
        response = await fetch(request, { signal: attempt.signal });
      } catch (error) {
        settle();
        // The timer or the caller aborted: the reason is already the typed error to throw.
        if (attempt.signal.aborted) throw attempt.signal.reason;
        if (tries >= retries) throw new ConnectionError(`${method} request failed: ${(error as Error).message}`, { cause: error });
        // Otherwise no response arrived (refused, reset): repeating a GET cannot do harm twice.
      }
      if (response) {
        if (tries >= retries || !isRetryableStatus(response.status)) {
          (response as { [settleKey]?: () => void })[settleKey] = settle;
          return response;
        }
        // A transient status on a GET: read again after the server's or our backoff delay.
        settle();
        await response.body?.cancel();
      }
      await retryTiming.sleep(retryDelay(tries + 1, response?.headers.get("retry-after")), caller);
    }
  };
}
