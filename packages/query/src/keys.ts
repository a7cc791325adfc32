/**
 * Query keys: one hierarchy under `["bot-conversation"]`, so that a prefix invalidates everything below
 * it (TanStack Query matches keys by prefix). A search's filters are the last element, an object
 * (TanStack hashes objects with sorted keys, so the order the filters were written in does not matter).
 */
import type { BotConversationError } from "@bot-conversation/client";
import type { ConversationPage, ExternalEventTrigger, SearchConversationsQuery } from "@bot-conversation/types";
import type { DataTag, InfiniteData } from "@tanstack/query-core";

/** What a query or mutation of this package can fail with: an error of the client, or a `TypeError` naming a bad argument. */
export type BotConversationQueryError = BotConversationError | TypeError;

/** The page parameter of an infinite search: the `pageIndex` to ask for, or `undefined` for the first page when none was given. */
export type ConversationPageParam = number | undefined;

/** The root of every key of this package. */
export const botConversationKey = ["bot-conversation"] as const;

/** Key of the searches of one bot, or of every search when `agentStageId` is left out. */
export type ConversationsKey = readonly ["bot-conversation", "conversations"] | readonly ["bot-conversation", "conversations", string | null];

/** Key of one page of a search. */
export type SearchConversationsKey = readonly ["bot-conversation", "conversations", string | null, "page", SearchConversationsQuery];

/** Key of an infinite search (every page of it). */
export type SearchConversationsInfiniteKey = readonly ["bot-conversation", "conversations", string | null, "infinite", SearchConversationsQuery];

/** Key of the trigger list of one bot. */
export type ExternalEventTriggersKey = readonly ["bot-conversation", "triggers", string];

/**
 * The prefix of every search of the bot `agentStageId` (both kinds, any filters, any page), for
 * `queryClient.invalidateQueries({ queryKey: conversationsKey(agentStageId) })`. Without an argument,
 * the prefix of every search; a search without `agentStageId` (every bot) sits only under that one.
 */
export function conversationsKey(agentStageId?: string): ConversationsKey {
  return agentStageId === undefined ? ["bot-conversation", "conversations"] : ["bot-conversation", "conversations", agentStageId];
}

/** The key of one page of a search: `["bot-conversation", "conversations", agentStageId ?? null, "page", query]`, typed with its data. */
export function searchConversationsKey(query: SearchConversationsQuery = {}): DataTag<SearchConversationsKey, ConversationPage, BotConversationQueryError> {
  return ["bot-conversation", "conversations", query.agentStageId ?? null, "page", query] as SearchConversationsKey as DataTag<
    SearchConversationsKey,
    ConversationPage,
    BotConversationQueryError
  >;
}

/** The key of an infinite search: `["bot-conversation", "conversations", agentStageId ?? null, "infinite", query]`, typed with its data. */
export function searchConversationsInfiniteKey(
  query: SearchConversationsQuery = {},
): DataTag<SearchConversationsInfiniteKey, InfiniteData<ConversationPage, ConversationPageParam>, BotConversationQueryError> {
  return ["bot-conversation", "conversations", query.agentStageId ?? null, "infinite", query] as SearchConversationsInfiniteKey as DataTag<
    SearchConversationsInfiniteKey,
    InfiniteData<ConversationPage, ConversationPageParam>,
    BotConversationQueryError
  >;
}

/** The key of a bot's trigger list: `["bot-conversation", "triggers", agentStageId]`, typed with its data. */
export function externalEventTriggersKey(agentStageId: string): DataTag<ExternalEventTriggersKey, ExternalEventTrigger[], BotConversationQueryError> {
  return ["bot-conversation", "triggers", agentStageId] as ExternalEventTriggersKey as DataTag<
    ExternalEventTriggersKey,
    ExternalEventTrigger[],
    BotConversationQueryError
  >;
}

/** The mutation key of firing an external event, for `useIsMutating` or `mutationCache` filters. */
export const fireExternalEventKey = ["bot-conversation", "fire"] as const;
