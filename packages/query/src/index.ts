/** TanStack Query option factories over the Bot Conversation client, framework-neutral (typed with `@tanstack/query-core`). */
export {
  botConversationKey,
  conversationsKey,
  externalEventTriggersKey,
  fireExternalEventKey,
  searchConversationsInfiniteKey,
  searchConversationsKey,
  type BotConversationQueryError,
  type ConversationPageParam,
  type ConversationsKey,
  type ExternalEventTriggersKey,
  type SearchConversationsInfiniteKey,
  type SearchConversationsKey,
} from "./keys.js";
export {
  searchConversationsInfiniteQueryOptions,
  searchConversationsQueryOptions,
  type SearchConversationsInfiniteQueryOptions,
  type SearchConversationsQueryOptions,
} from "./conversations.js";
export { externalEventTriggersQueryOptions, type ExternalEventTriggersQueryOptions } from "./triggers.js";
export { fireExternalEventMutationOptions, type FireExternalEventMutationOptions, type FireExternalEventMutationSettings } from "./fire.js";
