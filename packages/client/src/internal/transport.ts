import { AbortError, ConnectionError } from "../errors.js";
import { isRetryableStatus, retryDelay } from "../retry.js";
import { createAttempts, keepAttempt } from "./attempts.js";

/** Access token, or a function (sync or async) called before every attempt so a token can be refreshed. */
export type TokenSource = string | (() => string | Promise<string>);

/** Settings of the fetch wrapper that openapi-fetch sends every request through. */
export interface TransportOptions {
  /** Access token sent as `X-Token`. */
  readonly token: TokenSource;
  /** The underlying fetch. */
  readonly fetch: (request: Request, init?: RequestInit) => Promise<Response>;
  /** Per-attempt timeout in ms. */
  readonly timeoutMs: number;
  /** Retries of a GET after the first attempt. */
  readonly maxRetries: number;
  /** Called with every token value sent, so errors can redact it. */
  readonly onToken: (token: string) => void;
}

/** How the transport waits between attempts and draws jitter; an object so tests can replace either. */
export const retryTiming = {
  /** Waits `ms`, or rejects when `signal` aborts first. */
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  },
  /** Source of jitter in [0, 1). */
  random: Math.random,
};

/**
 * Builds the fetch given to openapi-fetch: token, per-attempt timeout, typed failures and GET retries.
 * The response carries its attempt, whose deadline also covers the body read until `settleAttempt`.
 */
export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  const { token, fetch, timeoutMs, maxRetries, onToken } = options;
  const startAttempt = createAttempts(timeoutMs);
  const tokenIsFixed = typeof token === "string";
  if (tokenIsFixed) onToken(token);

  return async function send(request: Request): Promise<Response> {
    const caller = request.signal;
    const method = request.method;
    const retries = method === "GET" ? maxRetries : 0;
    for (let tries = 0; ; tries++) {
      const value = tokenIsFixed ? token : await token();
      if (!tokenIsFixed) onToken(value);
      if (caller.aborted) throw new AbortError(`${method} request aborted by the caller`);
      request.headers.set("X-Token", value);
      const attempt = startAttempt(caller, method);
      let response: Response;
      try {
        response = await fetch(request, { signal: attempt.signal });
      } catch (error) {
        attempt.settle();
        // The deadline or the caller aborted: the reason is already the typed error to throw.
        if (attempt.signal.aborted) throw attempt.signal.reason;
        // No response arrived (refused, reset): repeating a GET cannot do harm twice.
        if (tries < retries) {
          await pause(tries + 1, null);
          continue;
        }
        throw new ConnectionError(`${method} request failed to connect: ${(error as Error).message}`, { cause: error });
      }
      // A transient status on a GET: read again after the server's or our backoff delay.
      if (tries < retries && isRetryableStatus(response.status)) {
        attempt.settle();
        await response.body?.cancel();
        await pause(tries + 1, response.headers.get("retry-after"));
        continue;
      }
      keepAttempt(response, attempt);
      return response;
    }

    async function pause(retry: number, retryAfter: string | null): Promise<void> {
      try {
        await retryTiming.sleep(retryDelay(retry, retryAfter, retryTiming.random), caller);
      } catch {
        throw new AbortError(`${method} request aborted by the caller while waiting to retry`);
      }
    }
  };
}
