/** Typed client of the Bot Conversation Service, on openapi-fetch. */
export {
  createBotConversationClient,
  type BotConversationClient,
  type BotConversationClientOptions,
  type FireOptions,
  type RequestOptions,
} from "./client.js";
export {
  AbortError,
  ApiError,
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
  type ApiErrorInit,
} from "./errors.js";
export { defaultMaxResponseBytes, limitResponse } from "./internal/limit.js";
export type { Logger, TokenSource } from "./internal/transport.js";
export { nextPageIndex, type IterateOptions } from "./pagination.js";
export { EventValidationError, parseDateTime, platformConversationId, validateEventPayload, type PayloadProblem } from "./payload.js";
