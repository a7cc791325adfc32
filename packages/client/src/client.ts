import type {
  ConversationPage,
  ConversationSummary,
  ExternalEventTrigger,
  FireExternalEventRequest,
  paths,
  SearchConversationsQuery,
} from "@bot-conversation/types";
import createClient, { type Client } from "openapi-fetch";
import { describeValue, requireText } from "./internal/describe.js";
import { readResponse } from "./internal/response.js";
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
  readonly signal?: AbortSignal | undefined;
  /** Extra headers of this call, e.g. `{ Prefer: "code=404" }` for Prism. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
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

/** What every call passes to openapi-fetch besides its parameters: a text body (parsed here), the caller's headers and signal. */
const textOptions = (call?: RequestOptions) =>
  // openapi-fetch skips a header set or signal that is undefined, which its types do not say under exactOptionalPropertyTypes.
  ({ parseAs: "text", ...call }) as { parseAs: "text"; headers?: Readonly<Record<string, string>>; signal?: AbortSignal };

/** Creates a client of the Bot Conversation Service. */
export function createBotConversationClient(options: BotConversationClientOptions): BotConversationClient {
  const sentTokens = new Set<string>();
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: options.headers ?? {},
    fetch: createTransport(options, sentTokens),
  });

  async function searchConversations(query: SearchConversationsQuery = {}, call?: RequestOptions): Promise<ConversationPage> {
    const pending = raw.GET(searchPath, { params: { query }, ...textOptions(call) });
    return readResponse("GET", searchPath, pending, sentTokens, (body) => body as ConversationPage);
  }

  return {
    raw,
    searchConversations,
    iterateConversationPages: (query, iterate) => iterateConversationPages(searchConversations, query, iterate),
    iterateConversations: (query, iterate) => iterateConversations(searchConversations, query, iterate),

    async listExternalEventTriggers(agentStageId, call?: RequestOptions) {
      requireText("agentStageId", agentStageId);
      const pending = raw.GET(triggersPath, { params: { path: { agentStageId } }, ...textOptions(call) });
      return readResponse("GET", triggersPath, pending, sentTokens, toTriggerList);
    },

    async fireExternalEvent(request, { trigger, ...call } = {}) {
      if (trigger) {
        // Another trigger's parameters say nothing about this request: passing it is a caller's mistake.
        if (trigger.externalEventId !== request.externalEventId) {
          throw new TypeError(`options.trigger: expected the trigger ${describeValue(request.externalEventId)}; got ${describeValue(trigger.externalEventId)}`);
        }
        const problems = validateEventPayload(trigger, request.externalEventPayload);
        if (problems.length > 0) throw new EventValidationError(problems);
      }
      await readResponse("POST", firePath, raw.POST(firePath, { body: request, ...textOptions(call) }), sentTokens);
    },
  };
}
