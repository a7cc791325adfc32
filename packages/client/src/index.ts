/** Typed client of the Bot Conversation Service, on openapi-fetch. */
export {
  type BotConversationClient,
  type BotConversationClientOptions,
  createBotConversationClient,
  type FireOptions,
} from "./client.js";
export {
  AbortError,
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BotConversationError,
  ConnectionError,
  NotFoundError,
  OutcomeUnknownError,
  PaginationError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from "./errors.js";
export type { RequestOptions } from "./internal/call-options.js";
export { defaultMaxResponseBytes, limitResponse } from "./internal/limit.js";
export type { Logger, TokenSource } from "./internal/transport.js";
export { type IterateOptions, nextPageIndex } from "./pagination.js";
export { EventValidationError, type PayloadProblem, parseDateTime, platformConversationId, validateEventPayload } from "./payload.js";
export { parseRetryAfter } from "./retry.js";
