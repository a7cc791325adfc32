import { setTimeout as sleep } from "node:timers/promises";
import { limitResponse, ResponseTooLargeError } from "@bot-conversation/client";
import { urlOf, wrongToken, type Case, type Exchange } from "./case.ts";
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
}

/** Sends cases one at a time, within the budget and the rate, and reads each response whole. */
export interface Transport {
  /** Sends one case; throws `BudgetExhaustedError`, `StoppedError` or `UnreachableError`. */
  send(request: Case): Promise<Exchange>;
  /** Requests sent so far. */
  readonly sent: number;
  /** Whether another request may be sent. */
  readonly hasBudget: boolean;
}

/** A transport over `options.fetch`, with the budget, the rate and the token handling. */
export function createTransport(options: TransportOptions): Transport {
  let sent = 0;
  let nextSlot = 0;
  const interval = options.rate > 0 ? 1000 / options.rate : 0;
  const redact = (text: string): string => redactToken(text, options.token);

  return {
    get sent() {
      return sent;
    },
    get hasBudget() {
      return sent < options.maxRequests && !options.signal.aborted;
    },
    async send(request) {
      if (options.signal.aborted) throw new StoppedError("stopped");
      if (sent >= options.maxRequests) throw new BudgetExhaustedError(`--max-requests ${options.maxRequests} reached`);
      const wait = nextSlot - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal: options.signal }).catch(() => undefined);
      if (options.signal.aborted) throw new StoppedError("stopped");
      nextSlot = Math.max(Date.now(), nextSlot) + interval;
      sent += 1;
      const headers = new Headers(options.headers);
      headers.set("accept", request.accept ?? "application/json");
      if (request.authentication === "token") headers.set("x-token", options.token);
      if (request.authentication === "wrong") headers.set("x-token", wrongToken);
      if (request.authentication === "empty") headers.set("x-token", "");
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
          ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        });
        // Read within the size limit (an endless body ends there), and the token redacted from the body,
        // and from the header names and values, before anything is kept: no check or report sees it.
        const text = redact(await limitResponse(response, options.maxResponseBytes, `${request.method} ${urlOf(options.baseUrl, request).pathname}`).text());
        const received = new Headers([...response.headers].map(([name, value]): [string, string] => [redact(name), redact(value)]));
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
        const exchange: Exchange = { case: request, status: response.status, headers: received, text, json, isJson, elapsedMs: performance.now() - started };
        options.onExchange?.(exchange);
        return exchange;
      } catch (error) {
        if (options.signal.aborted) throw new StoppedError("stopped");
        if (error instanceof ResponseTooLargeError) throw new UnreachableError(redact(error.message));
        const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
        throw new UnreachableError(`${request.method} ${urlOf(options.baseUrl, request).pathname} got no response: ${redact(cause)}`);
      }
    },
  };
}
