import { AbortError, ConnectionError, TimeoutError } from "../errors.js";
import { isRetryableStatus, retryDelay } from "../retry.js";

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
  /** Waits between attempts; injectable for timing tests. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1); injectable for timing tests. */
  readonly random?: () => number;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
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
}

/** Builds the fetch given to openapi-fetch: token, per-attempt timeout, typed failures and GET retries. */
export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  const { token, fetch, timeoutMs, maxRetries, onToken, random = Math.random } = options;
  const wait = options.sleep ?? sleep;
  const tokenIsFixed = typeof token === "string";
  if (tokenIsFixed) onToken(token);

  return async function send(request: Request): Promise<Response> {
    const caller = request.signal;
    const retries = request.method === "GET" ? maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      const value = tokenIsFixed ? token : await token();
      if (!tokenIsFixed) onToken(value);
      request.headers.set("X-Token", value);
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await fetch(request, { signal: AbortSignal.any([caller, timeout]) });
      } catch (error) {
        if (caller.aborted) throw new AbortError(`${request.method} request aborted by the caller`);
        if (timeout.aborted) throw new TimeoutError(`${request.method} attempt timed out after ${timeoutMs} ms`);
        // No response arrived (refused, reset): repeating a GET cannot do harm twice.
        if (attempt < retries) {
          await pause(attempt + 1, null);
          continue;
        }
        throw new ConnectionError(`${request.method} request failed to connect: ${(error as Error).message}`, { cause: error });
      }
      // A transient status on a GET: read again after the server's or our backoff delay.
      if (attempt < retries && isRetryableStatus(response.status)) {
        await response.body?.cancel();
        await pause(attempt + 1, response.headers.get("retry-after"));
        continue;
      }
      return response;
    }

    async function pause(retry: number, retryAfter: string | null): Promise<void> {
      try {
        await wait(retryDelay(retry, retryAfter, random), caller);
      } catch {
        throw new AbortError(`${request.method} request aborted by the caller while waiting to retry`);
      }
    }
  };
}
