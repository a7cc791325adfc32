/** TanStack Query option factories over the Bot Conversation client, framework-neutral (typed with `@tanstack/query-core`). */

export {
  type SearchConversationsInfiniteQueryOptions,
  type SearchConversationsQueryOptions,
  searchConversationsInfiniteQueryOptions,
  searchConversationsQueryOptions,
} from "./conversations.js";
export { type FireExternalEventMutationOptions, type FireExternalEventMutationSettings, fireExternalEventMutationOptions } from "./fire.js";
export {
  type BotConversationQueryError,
  botConversationKey,
  type ConversationPageParam,
  type ConversationsKey,
  conversationsKey,
  type ExternalEventTriggersKey,
  externalEventTriggersKey,
  fireExternalEventKey,
  type SearchConversationsInfiniteKey,
  type SearchConversationsKey,
  searchConversationsInfiniteKey,
  searchConversationsKey,
} from "./keys.js";
export { type ExternalEventTriggersQueryOptions, externalEventTriggersQueryOptions } from "./triggers.js";
