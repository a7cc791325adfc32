import type {
  ConversationPage,
  ConversationSummary,
  ExternalEventTrigger,
  FireExternalEventRequest,
  paths,
  SearchConversationsQuery,
} from "@bot-conversation/types";
import createClient, { type Client } from "openapi-fetch";
import { parseJson, readResponse, unexpectedResponse } from "./internal/response.js";
import { createTransport, type TokenSource } from "./internal/transport.js";
import { toTriggerList } from "./internal/triggers.js";
import { iterateConversationPages, iterateConversations, type IterateOptions } from "./pagination.js";
import { EventValidationError, validateEventPayload } from "./payload.js";

/** Options of `createBotConversationClient`. */
export interface BotConversationClientOptions {
  /** Base address of the service, without a trailing slash, e.g. `http://127.0.0.1:4010`. */
  readonly baseUrl: string;
  /** Access token sent as `X-Token`, or a function (sync or async) called before every attempt, to refresh it. */
  readonly token: TokenSource;
  /** The fetch to use; defaults to the global `fetch`. */
  readonly fetch?: (input: Request, init?: RequestInit) => Promise<Response>;
  /** Timeout of each attempt in ms; default 60 000. */
  readonly timeoutMs?: number;
  /** Retries of a GET after the first attempt; default 2. Firing an event is never retried. */
  readonly maxRetries?: number;
  /** Extra headers on every request, e.g. Prism's `Prefer`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Per-call options. */
export interface RequestOptions {
  /** Aborts the call (including waits between retries). */
  readonly signal?: AbortSignal;
  /** Extra headers of this call, e.g. `{ Prefer: "code=404" }` for Prism. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Options of `fireExternalEvent`. */
export interface FireOptions extends RequestOptions {
  /** The trigger being fired: the request is checked against it first and never sent when it does not fit. */
  readonly trigger?: ExternalEventTrigger;
}

/** A client of the Bot Conversation Service. */
export interface BotConversationClient {
  /** The underlying openapi-fetch client (same token, timeout and retries), answering `{ data, error, response }`. */
  readonly raw: Client<paths>;
  /** Returns one page of the conversations matching the filters. */
  searchConversations(query?: SearchConversationsQuery, options?: RequestOptions): Promise<ConversationPage>;
  /** Iterates over every page of a search, following `hasMore`; see `IterateOptions`. */
  iterateConversationPages(query?: SearchConversationsQuery, options?: IterateOptions): AsyncGenerator<ConversationPage, void, undefined>;
  /** Iterates over every conversation of a search, across pages. */
  iterateConversations(query?: SearchConversationsQuery, options?: IterateOptions): AsyncGenerator<ConversationSummary, void, undefined>;
  /** Lists the external event triggers of a bot; always an array, whichever shape the service answers with. */
  listExternalEventTriggers(agentStageId: string, options?: RequestOptions): Promise<ExternalEventTrigger[]>;
  /**
   * Fires an external event into a conversation. Never retried automatically: firing twice runs the
   * scenario twice. With `options.trigger`, a request that does not fit the trigger throws
   * `EventValidationError` and is not sent.
   */
  fireExternalEvent(request: FireExternalEventRequest, options?: FireOptions): Promise<void>;
}

const searchPath = "/api/v2/channels/conversations";
const triggersPath = "/api/v1/runtime/simple/external/events/{agentStageId}";
const firePath = "/api/v1/runtime/simple/external/events";
const noOptions: RequestOptions = {};
const noHeaders: Readonly<Record<string, string>> = {};

/** Creates a client of the Bot Conversation Service. */
export function createBotConversationClient(options: BotConversationClientOptions): BotConversationClient {
  const sentTokens = new Set<string>();
  const baseFetch = options.fetch ?? ((input: Request, init?: RequestInit) => fetch(input, init));
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.headers ?? noHeaders,
    fetch: createTransport({
      token: options.token,
      fetch: baseFetch,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
      onToken: (token) => {
        // Remember what was sent so error bodies and headers that echo it can be redacted.
        if (sentTokens.size >= 8) sentTokens.clear();
        if (token !== "") sentTokens.add(token);
      },
    }),
  });
  async function searchConversations(query: SearchConversationsQuery = {}, call = noOptions): Promise<ConversationPage> {
    const pending = raw.GET(searchPath, { params: { query }, parseAs: "text", headers: call.headers ?? noHeaders, signal: call.signal ?? null });
    return parseJson("GET", searchPath, await readResponse("GET", searchPath, pending, sentTokens), sentTokens) as ConversationPage;
  }

  return {
    raw,
    searchConversations,
    iterateConversationPages: (query, iterate) => iterateConversationPages(searchConversations, query, iterate),
    iterateConversations: (query, iterate) => iterateConversations(searchConversations, query, iterate),

    async listExternalEventTriggers(agentStageId, call = noOptions) {
      if (typeof agentStageId !== "string" || agentStageId === "") throw new TypeError("agentStageId must be a non-empty string");
      const pending = raw.GET(triggersPath, {
        params: { path: { agentStageId } },
        parseAs: "text",
        headers: call.headers ?? noHeaders,
        signal: call.signal ?? null,
      });
      const result = await readResponse("GET", triggersPath, pending, sentTokens);
      return toTriggerList(parseJson("GET", triggersPath, result, sentTokens), (problem, body) =>
        unexpectedResponse("GET", triggersPath, result, sentTokens, problem, body),
      );
    },

    async fireExternalEvent(request, call: FireOptions = noOptions) {
      const { trigger } = call;
      if (trigger) {
        const problems = validateEventPayload(trigger, request.externalEventPayload);
        const idMatches = request.externalEventId === trigger.externalEventId;
        if (problems.length > 0 || !idMatches) {
          throw new EventValidationError(
            problems,
            idMatches ? undefined : { expected: trigger.externalEventId, received: request.externalEventId },
          );
        }
      }
      const pending = raw.POST(firePath, { body: request, parseAs: "text", headers: call.headers ?? noHeaders, signal: call.signal ?? null });
      await readResponse("POST", firePath, pending, sentTokens);
    },
  };
}
