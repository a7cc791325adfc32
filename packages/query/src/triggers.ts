import type { BotConversationClient } from "@bot-conversation/client";
import type { ExternalEventTrigger } from "@bot-conversation/types";
import type { DataTag, OmitKeyof, QueryFunction, QueryObserverOptions } from "@tanstack/query-core";
import { type BotConversationQueryError, type ExternalEventTriggersKey, externalEventTriggersKey } from "./keys.js";

/** Options of a bot's trigger list, for `useQuery`, `queryClient.fetchQuery` and every other adapter. */
export type ExternalEventTriggersQueryOptions = OmitKeyof<
  QueryObserverOptions<ExternalEventTrigger[], BotConversationQueryError, ExternalEventTrigger[], ExternalEventTrigger[], ExternalEventTriggersKey>,
  "queryKey" | "queryFn"
> & {
  /** The list's key (see `externalEventTriggersKey`). */
  queryKey: DataTag<ExternalEventTriggersKey, ExternalEventTrigger[], BotConversationQueryError>;
  /** Fetches the list; always a function (never `skipToken`), so the options also fit `useSuspenseQuery`. */
  queryFn: QueryFunction<ExternalEventTrigger[], ExternalEventTriggersKey>;
};

/**
 * The external event triggers of a bot (`client.listExternalEventTriggers`), always an array. An unknown
 * bot is a `NotFoundError`. `retry: false`: the client retries what is worth retrying.
 */
export function externalEventTriggersQueryOptions(client: BotConversationClient, agentStageId: string): ExternalEventTriggersQueryOptions {
  return {
    queryKey: externalEventTriggersKey(agentStageId),
    queryFn: ({ signal }) => client.listExternalEventTriggers(agentStageId, { signal }),
    retry: false,
  };
}
