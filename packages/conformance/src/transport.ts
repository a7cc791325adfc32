import { setTimeout as sleep } from "node:timers/promises";
import { limitResponse, parseRetryAfter, ResponseTooLargeError } from "@bot-conversation/client";
import { bodyTextOf, type Case, type Exchange, urlOf } from "./case.ts";
import { credentialHeaders, tokenForms } from "./credentials.ts";
import { redactToken } from "./redact.ts";

/** The request budget is spent: `--max-requests` reached. */
export class BudgetExhaustedError extends Error {
  override name = "BudgetExhaustedError";
}

/** The run was stopped (Ctrl-C, or the caller's signal). */
export class StoppedError extends Error {
  override name = "StoppedError";
}

/** The server could not be reached at all (refused, no such host, a time-out), or its answer could not be read whole (a body past the size limit). */
export class UnreachableError extends Error {
  override name = "UnreachableError";
}

/** The server's rate limit keeps the run from going on within its bounds (a `Retry-After` past `--max-time`, or retries spent). */
export class RateLimitedError extends Error {
  override name = "RateLimitedError";
}

/** One answer that told the kit to slow down: a 429, or a 503 with `Retry-After`. */
export interface RateLimitEvent {
  /** 429 or 503. */
  readonly status: number;
  /** The wait the server asked for, in milliseconds (1 s when a 429 names none: the kit's choice). */
  readonly retryAfterMs: number;
  /** Requests sent before it. */
  readonly afterRequests: number;
  /** The rate the kit sends at from then on, in requests per second. */
  readonly slowedTo: number;
}

/** How many times one request is sent again after a 429 or a 503 with `Retry-After` (the kit's choice). */
const maxRetries = 5;

/** The longest `Retry-After` the kit waits out (as Stainless clients do); a longer one stops the run (the kit's choice). */
const maxWaitMs = 60_000;

/** What a transport needs. */
export interface TransportOptions {
  /** Base address of the server. */
  readonly baseUrl: string;
  /** Token sent in `X-Token`. */
  readonly token: string;
  /** The fetch function to send with (an in-process server's own fetch works too). */
  readonly fetch: typeof globalThis.fetch;
  /** At most this many requests in the whole run. */
  readonly maxRequests: number;
  /** At most this many requests per second; 0 for no limit. */
  readonly rate: number;
  /** Per-request time-out in milliseconds. */
  readonly timeoutMs: number;
  /** Largest response body read, in bytes (the client's `limitResponse`): a larger one is not read further. */
  readonly maxResponseBytes: number;
  /** Stops the run when aborted. */
  readonly signal: AbortSignal;
  /** Extra headers sent with every request (`--header`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called after every response (progress). */
  readonly onExchange?: (exchange: Exchange) => void;
  /** When the run must end (epoch milliseconds, from `--max-time`): a `Retry-After` past it stops the run at once. */
  readonly deadline?: number | undefined;
}

/** Sends cases one at a time, within the budget and the rate, and reads each response whole. */
export interface Transport {
  /** Sends one case; throws `BudgetExhaustedError`, `StoppedError` or `UnreachableError`. */
  send(request: Case): Promise<Exchange>;
  /** Requests sent so far. */
  readonly sent: number;
  /** Whether another request may be sent. */
  readonly hasBudget: boolean;
  /** Every answer that asked the kit to slow down. */
  readonly rateLimits: readonly RateLimitEvent[];
}

/** A body sent as a stream of two chunks: fetch frames it with `Transfer-Encoding: chunked`, not a Content-Length (RFC 9112 §7.1). */
function chunked(text: string): { body: ReadableStream<Uint8Array>; duplex: "half" } {
  const bytes = new TextEncoder().encode(text);
  const half = Math.ceil(bytes.length / 2);
  return {
    body: new ReadableStream({
      start(controller) {
        controller.enqueue(bytes.slice(0, half));
        controller.enqueue(bytes.slice(half));
        controller.close();
      },
    }),
    duplex: "half",
  };
}

/** A transport over `options.fetch`, with the budget, the rate and the token handling. */
export function createTransport(options: TransportOptions): Transport {
  let sent = 0;
  let nextSlot = 0;
  let interval = options.rate > 0 ? 1000 / options.rate : 0;
  const rateLimits: RateLimitEvent[] = [];
  // The token's variants (another letter case, a space inside, cut) are as secret as the token itself.
  const secrets = tokenForms(options.token);
  const redact = (text: string): string => secrets.reduce((redacted, secret) => redactToken(redacted, secret), text);

  /** Waits out a 429 (or a 503 with `Retry-After`) and halves the rate; false when the answer is not one. */
  const slowDown = async (status: number, headers: Headers, attempt: number): Promise<boolean> => {
    // The client's one reading of Retry-After, uncapped: a wait past the kit's bound is reported, not ignored.
    const asked = parseRetryAfter(headers.get("retry-after"), Infinity);
    if (!(status === 429 || (status === 503 && asked !== undefined))) return false;
    const wait = asked ?? 1000;
    // Halve the rate (an unlimited run drops to 25 per second): a server that limits once will limit again at the same pace.
    interval = interval > 0 ? interval * 2 : 40;
    rateLimits.push({ status, retryAfterMs: wait, afterRequests: sent, slowedTo: Math.round((1000 / interval) * 10) / 10 });
    if (wait > maxWaitMs)
      throw new RateLimitedError(
        `the server asked to wait ${Math.ceil(wait / 1000)} s (Retry-After), more than the ${maxWaitMs / 1000} s the kit waits for one answer`,
      );
    if (attempt >= maxRetries) throw new RateLimitedError(`the server still answered ${status} after ${maxRetries} waits of its Retry-After`);
    if (options.deadline !== undefined && Date.now() + wait > options.deadline) {
      throw new RateLimitedError(`the server asked to wait ${Math.ceil(wait / 1000)} s (Retry-After), past the end of --max-time`);
    }
    await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
    if (options.signal.aborted) throw new StoppedError("stopped");
    nextSlot = Date.now() + interval;
    return true;
  };

  return {
    get sent() {
      return sent;
    },
    get hasBudget() {
      return sent < options.maxRequests && !options.signal.aborted;
    },
    rateLimits,
    async send(request) {
      for (let attempt = 0; ; attempt++) {
        const exchange = await sendOnce(request);
        // A rate limit is the server's behaviour, not a verdict: wait as asked and send the same request again.
        if (!(await slowDown(exchange.status, exchange.headers, attempt))) return exchange;
      }
    },
  };

  async function sendOnce(request: Case): Promise<Exchange> {
    if (options.signal.aborted) throw new StoppedError("stopped");
    if (sent >= options.maxRequests) throw new BudgetExhaustedError(`--max-requests ${options.maxRequests} reached`);
    const wait = nextSlot - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
    if (options.signal.aborted) throw new StoppedError("stopped");
    nextSlot = Math.max(Date.now(), nextSlot) + interval;
    sent += 1;
    const headers = new Headers(options.headers);
    headers.set("accept", request.accept ?? "application/json");
    for (const [name, value] of Object.entries(request.headers ?? {})) headers.set(name, value);
    for (const [name, value] of credentialHeaders(request.authentication, options.token)) headers.set(name, value);
    if (request.body !== undefined) headers.set("content-type", "application/json");
    const started = performance.now();
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
    try {
      // redirect: manual, so the token never follows a redirect to another origin.
      const response = await options.fetch(urlOf(options.baseUrl, request, options.token), {
        method: request.method,
        headers,
        redirect: "manual",
        signal,
        ...(request.body === undefined ? {} : request.bodyFraming === "chunked" ? chunked(bodyTextOf(request)!) : { body: bodyTextOf(request)! }),
      });
      // Read within the size limit (an endless body ends there), then decoded strictly: a body that is not
      // UTF-8 is body_encoding's to report; the others read it with replacement characters.
      const bytes = await limitResponse(response, options.maxResponseBytes, `${request.method} ${urlOf(options.baseUrl, request).pathname}`).bytes();
      let decoded: string;
      let invalidUtf8 = false;
      try {
        decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        decoded = new TextDecoder("utf-8").decode(bytes);
        invalidUtf8 = true;
      }
      const text = redact(decoded);
      let json: unknown;
      let isJson = false;
      if (text.trim() !== "") {
        try {
          json = JSON.parse(text);
          isJson = true;
        } catch {
          // Not JSON: the checks that need JSON say so.
        }
      }
      // The token redacted from the body, and from the header names and values, before anything is kept: no check or report sees it.
      const received = new Headers([...response.headers].map(([name, value]): [string, string] => [redact(name), redact(value)]));
      const exchange: Exchange = {
        case: request,
        status: response.status,
        headers: received,
        text,
        json,
        isJson,
        elapsedMs: performance.now() - started,
        ...(invalidUtf8 ? { invalidUtf8 } : {}),
      };
      options.onExchange?.(exchange);
      return exchange;
    } catch (error) {
      if (options.signal.aborted) throw new StoppedError("stopped");
      if (error instanceof ResponseTooLargeError) throw new UnreachableError(redact(error.message));
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new UnreachableError(`${request.method} ${urlOf(options.baseUrl, request).pathname} got no response: ${redact(cause)}`);
    }
  }
}
