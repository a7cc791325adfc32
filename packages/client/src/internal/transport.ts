import { AbortError, ConnectionError, TimeoutError } from "../errors.js";
import { isRetryableStatus, retryDelay } from "../retry.js";
import { checkToken } from "./checks.js";
import { defaultMaxResponseBytes, limitResponse } from "./limit.js";
import { describeFailure, redact } from "./redact.js";

/** Access token, or a function (sync or async) called before every attempt so a token can be refreshed. */
export type TokenSource = string | (() => string | Promise<string>);

/** Receives one redacted line per attempt, e.g. `GET /api/v2/channels/conversations attempt 1: 200, request id r-1 in 12 ms` (`no request id` when the server sends none); `console.debug` fits. */
export type Logger = (line: string) => void;

/** Settings of the fetch wrapper that openapi-fetch sends every request through: the client's checked options. */
export interface TransportOptions {
  /** Access token sent as `X-Token` (already trimmed and checked), or the function that returns it. */
  readonly token: string | (() => unknown);
  /** The underlying fetch; default the global `fetch`, looked up at each call. */
  readonly fetch?: ((request: Request, init?: RequestInit) => Promise<Response>) | undefined;
  /** Per-attempt timeout in ms; default 60 000. */
  readonly timeoutMs?: number | undefined;
  /** Retries of a GET after the first attempt; default 2. */
  readonly maxRetries?: number | undefined;
  /** Where attempt lines go; none by default. */
  readonly logger?: Logger | undefined;
  /** Largest response body read, in bytes; default `defaultMaxResponseBytes` (16 MiB). */
  readonly maxResponseBytes?: number | undefined;
}

/** One call of the client, across its attempts: what its errors and log lines need. */
export interface Call {
  /** Path template of the operation, for messages, e.g. `/api/v2/channels/conversations`. */
  readonly path: string;
  /** Every token value this call sent, so its errors and log lines can be redacted. */
  readonly tokens: Set<string>;
  /** The response returned to openapi-fetch, once its status line arrived. */
  response?: Response;
  /** Ends the timeout and caller link of the attempt that produced `response`: its body has been read. */
  settle?: () => void;
}

/** How the transport waits between attempts; an object so tests can replace it. */
export const retryTiming = {
  /** Waits `ms`; resolves early when `signal` aborts, or at once when it already has (the attempt loop then throws `AbortError`). */
  sleep: (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      // An abort during the cancel of the last response's body came after the loop's check: its event has fired already.
      const timer = setTimeout(resolve, signal.aborted ? 0 : ms);
      // An aborted signal never fires again, so the listener needs no removal.
      signal.addEventListener("abort", () => resolve(clearTimeout(timer)));
    }),
};

/**
 * Builds the fetch given to openapi-fetch: token, per-attempt timeout, typed failures and GET retries.
 * Each attempt has one AbortController, aborted with a typed reason by a timer or by the caller's
 * signal, so the token function, fetch and the body read reject with the error to throw. The timer keeps
 * running after the response arrives, so the body read is covered, until `call.settle`; it is unref'd so
 * it never holds a Node process open (a body read through `raw` is never settled: its timer just fires
 * harmlessly). Redirects are never followed: fetch would send `X-Token` and the body to whatever
 * origin a `Location` names, and the service documents none.
 */
export function createTransport({ token, fetch, timeoutMs = 60_000, maxRetries = 2, logger, maxResponseBytes = defaultMaxResponseBytes }: TransportOptions) {
  return async function send(request: Request, call: Call): Promise<Response> {
    const { signal: caller, method } = request;
    const retries = method === "GET" ? maxRetries : 0;
    const aborted = (): AbortError => new AbortError(`${method} request aborted by the caller`);
    const log = logger && ((line: string) => logger(redact(`${method} ${call.path} attempt ${tries + 1}: ${line} in ${Date.now() - started} ms`, call.tokens)));
    let tries = 0;
    let started = 0;
    for (; ; tries++) {
      // Checked before every attempt, so an abort during the wait before a retry ends the loop too.
      if (caller.aborted) throw aborted();
      const attempt = new AbortController();
      const { signal } = attempt;
      const onAbort = (): void => attempt.abort(aborted());
      const timer = setTimeout(() => attempt.abort(new TimeoutError(`${method} request timed out after ${timeoutMs} ms`)), timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      caller.addEventListener("abort", onAbort);
      const settle = (): void => {
        clearTimeout(timer);
        caller.removeEventListener("abort", onAbort);
      };
      started = Date.now();
      let response: Response | undefined;
      let value: string | undefined;
      try {
        value =
          typeof token === "string"
            ? token
            : checkToken(
                // The function's result or the abort (timeout or caller), whichever comes first. What it throws is reported by its name only: its message may hold a secret.
                await new Promise((resolve, reject) => {
                  signal.addEventListener("abort", () => reject(signal.reason as Error));
                  // Async, so a function that throws at once rejects like one whose promise does.
                  (async () => token())().then(resolve, (error: unknown) => reject(new TypeError(`token: the function threw ${(error as Error)?.name}`)));
                }),
                "token: the function's result",
              );
        // Remembered per call, so this call's errors and log lines can redact exactly what it sent.
        call.tokens.add(value);
        request.headers.set("X-Token", value);
        response = await (fetch ?? globalThis.fetch)(request, { signal, redirect: "manual" });
      } catch (error) {
        settle();
        log?.("failed");
        // The timer or the caller aborted: the reason is already the typed error to throw.
        if (signal.aborted) throw signal.reason;
        // No token: the token function's own failure, already a TypeError; nothing was sent.
        if (!value) throw error;
        if (tries >= retries) throw new ConnectionError(`${method} request failed: ${describeFailure(error, call.tokens)}`);
        // Otherwise no response arrived (refused, reset): repeating a GET cannot do harm twice.
      }
      if (response) {
        const requestId = response.headers.get("x-request-id");
        // The service documents no request id: a server that sends none gets "no request id", not "null".
        log?.(`${response.status}, ${requestId === null ? "no request id" : `request id ${requestId}`}`);
        if (tries >= retries || !isRetryableStatus(response.status)) {
          // readResponse settles the attempt once the body has been read.
          call.settle = settle;
          // Every body is read through the limit: a peer's endless body ends in ResponseTooLargeError.
          return (call.response = limitResponse(response, maxResponseBytes, `${method} ${call.path}`));
        }
        // A transient status on a GET: read again after the server's or our backoff delay.
        settle();
        await response.body?.cancel();
      }
      await retryTiming.sleep(retryDelay(tries + 1, response?.headers.get("retry-after")), caller);
    }
  };
}
