import type {
  ConversationPage,
  ConversationSummary,
  ExternalEventTrigger,
  FireExternalEventRequest,
  paths,
  SearchConversationsQuery,
} from "@bot-conversation/types";
import createClient, { type Client, type FetchOptions } from "openapi-fetch";
import type { BodyCheck, RequestOptions } from "./internal/call-options.js";
import { checkClientOptions, checkFireRequest, checkQuery, checkSegment, toJson } from "./internal/checks.js";
import { describeValue, mistake } from "./internal/describe.js";
import { toPage } from "./internal/page.js";
import { readResponse, type TextResult } from "./internal/response.js";
import { type Call, createTransport, type Logger, type TokenSource } from "./internal/transport.js";
import { toTriggerList } from "./internal/triggers.js";
import { type IterateOptions, iterateConversationPages, iterateConversations } from "./pagination.js";
import { EventValidationError, validateEventPayload } from "./payload.js";

/** Options of `createBotConversationClient`; each is checked at creation (a `TypeError` names a wrong one). */
export interface BotConversationClientOptions {
  /** Base address of the service, http: or https:, e.g. `http://127.0.0.1:4010`; no user name or password in it. */
  readonly baseUrl: string;
  /** Access token sent as `X-Token` (trimmed; printable ASCII), or a function (sync or async) called before every attempt, to refresh it. */
  readonly token: TokenSource;
  /** The fetch to use; defaults to the global `fetch`. It is asked not to follow redirects (`redirect: "manual"`). */
  readonly fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  /** Timeout of each attempt in ms, getting the token included; a whole number from 1 to 2^31 - 1, default 60 000. */
  readonly timeoutMs?: number;
  /** Retries of a GET after the first attempt; a whole number from 0 to 100, default 2. Firing an event is never retried. */
  readonly maxRetries?: number;
  /** Extra headers on every request, e.g. Prism's `Prefer`; an `X-Token` among them is replaced by `token`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Largest response body read, in bytes: a whole number from 1 to 2^40, default 16 MiB
   * (`defaultMaxResponseBytes`). A body past it fails the call with `ResponseTooLargeError`, unread beyond the limit.
   */
  readonly maxResponseBytes?: number;
  /** Receives a redacted line per attempt (method, path, attempt, status, request id, duration), e.g. `console.debug`; silent when absent. */
  readonly logger?: Logger;
}

/** Options of `fireExternalEvent`. */
export interface FireOptions extends RequestOptions {
  /**
   * The trigger being fired: the request is checked against it first and never sent when it does not
   * fit (`EventValidationError`). A trigger of another `externalEventId` is a `TypeError`.
   */
  readonly trigger?: ExternalEventTrigger;
}

/** A client of the Bot Conversation Service. */
export interface BotConversationClient {
  /** The underlying openapi-fetch client (same token, timeout, retries, no redirects), answering `{ data, error, response }`. */
  readonly raw: Client<paths>;
  /** Returns one page of the conversations matching the filters; the page is checked against the envelope. */
  searchConversations(query?: SearchConversationsQuery, options?: RequestOptions): Promise<ConversationPage>;
  /** Iterates over every page of a search, following `hasMore`; see `IterateOptions`. */
  iterateConversationPages(query?: SearchConversationsQuery, options?: IterateOptions): AsyncGenerator<ConversationPage, void, undefined>;
  /** Iterates over every conversation of a search, across pages. */
  iterateConversations(query?: SearchConversationsQuery, options?: IterateOptions): AsyncGenerator<ConversationSummary, void, undefined>;
  /** Lists the external event triggers of a bot; always an array, whichever shape the service answers with. */
  listExternalEventTriggers(agentStageId: string, options?: RequestOptions): Promise<ExternalEventTrigger[]>;
  /**
   * Fires an external event into a conversation; resolves only on the service's 200. Never retried
   * automatically: firing twice runs the scenario twice. With `options.trigger`, a request that does
   * not fit the trigger throws `EventValidationError` and is not sent.
   */
  fireExternalEvent(request: FireExternalEventRequest, options?: FireOptions): Promise<void>;
}

const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";
const triggersPath = `${firePath}/{agentStageId}` as const;

/** The parameters or body of an operation, as openapi-fetch types them from the generated `paths`. */
type Params<Path extends keyof paths, Method extends "get" | "post"> = FetchOptions<paths[Path][Method]>;

/** A call of `run`: its method, path template, openapi-fetch parameters, the caller's options, the body's check and the status a call without one resolves on. */
export type Run = <T>(
  method: "GET" | "POST" | "DELETE",
  path: string,
  params: object,
  options?: RequestOptions,
  check?: BodyCheck<T>,
  expected?: number,
) => Promise<T>;

/**
 * The client's one way of calling a peer: openapi-fetch over the transport (token, time-outs, retries of a
 * GET, no redirects, bounded reads), the answer read by `readResponse` (typed errors, redacted). `run` makes
 * one call: the operation's parameters or body (typed at each call site with `satisfies Params`), plus
 * what every call passes: a text body, parsed and checked here; the caller's headers and signal; a fetch
 * that sends through the transport with the call's own `Call`, so its errors redact exactly the tokens it
 * sent. Without `check`, only `expected` (200 unless given) resolves (the fire).
 */
export function createCaller(options: BotConversationClientOptions): [Client<paths>, Run] {
  const send = createTransport({ ...options, token: checkClientOptions(options) });
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    // openapi-fetch merges no headers when this is undefined.
    headers: options.headers as Record<string, string>,
    bodySerializer: toJson,
    fetch: (request) => send(request, { path: request.url, tokens: new Set() }),
  });
  const run: Run = (method, path, params, { headers, signal, onResponse } = {}, check, expected) => {
    const call: Call = { path, tokens: new Set() };
    // openapi-fetch skips a header set or signal that is undefined; `params` was typed against the operation by the caller.
    const init = { ...params, parseAs: "text", headers, signal, fetch: (request: Request) => send(request, call) };
    return readResponse(method, call, (raw[method] as (path: string, init: object) => Promise<TextResult>)(path, init), onResponse, check!, expected);
  };
  return [raw, run];
}

/** Creates a client of the Bot Conversation Service. */
export function createBotConversationClient(options: BotConversationClientOptions): BotConversationClient {
  const [raw, run] = createCaller(options);

  async function searchConversations(query: SearchConversationsQuery = {}, options?: RequestOptions): Promise<ConversationPage> {
    checkQuery(query);
    return run("GET", searchPath, { params: { query } } satisfies Params<typeof searchPath, "get">, options, toPage);
  }

  return {
    raw,
    searchConversations,
    iterateConversationPages: (query, iterate) => iterateConversationPages(searchConversations, query, iterate),
    iterateConversations: (query, iterate) => iterateConversations(searchConversations, query, iterate),

    async listExternalEventTriggers(agentStageId, options?: RequestOptions) {
      checkSegment("agentStageId", agentStageId);
      return run("GET", triggersPath, { params: { path: { agentStageId } } } satisfies Params<typeof triggersPath, "get">, options, toTriggerList);
    },

    async fireExternalEvent(request, options: FireOptions = {}) {
      checkFireRequest(request);
      const { trigger } = options;
      if (trigger) {
        // Another trigger's parameters say nothing about this request: passing it is a caller's mistake.
        if (trigger.externalEventId !== request.externalEventId) {
          mistake("options.trigger", `the trigger ${describeValue(request.externalEventId)}`, trigger.externalEventId, 1);
        }
        const problems = validateEventPayload(trigger, request.externalEventPayload);
        if (problems[0]) throw new EventValidationError(problems);
      }
      await run("POST", firePath, { body: request } satisfies Params<typeof firePath, "post">, options);
    },
  };
}
