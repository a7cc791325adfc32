import type { BotConversationClient } from "@bot-conversation/client";
import type { ExternalEventTrigger, FireExternalEventRequest } from "@bot-conversation/types";
import type { MutationOptions } from "@tanstack/query-core";
import { type BotConversationQueryError, fireExternalEventKey } from "./keys.js";

/** Options of firing an external event, for `useMutation`, `MutationObserver` and every other adapter. */
export type FireExternalEventMutationOptions = MutationOptions<void, BotConversationQueryError, FireExternalEventRequest> & {
  /** Always `false`: firing twice runs the scenario twice. */
  retry: false;
};

/** Options of `fireExternalEventMutationOptions`. */
export interface FireExternalEventMutationSettings {
  /** Checks every request against this trigger first and sends nothing when it does not fit (`EventValidationError`). */
  readonly trigger?: ExternalEventTrigger;
}

/**
 * Fires an external event (`client.fireExternalEvent`), the mutation's variables being the request.
 * Never retried: `retry: false` overrides a `QueryClient`'s default, since firing twice runs the scenario
 * twice (the client never retries a fire either). A payload the service refuses is a `ServerError`
 * whose `details` are the service's; an unknown conversation or trigger a `NotFoundError`.
 */
export function fireExternalEventMutationOptions(
  client: BotConversationClient,
  settings: FireExternalEventMutationSettings = {},
): FireExternalEventMutationOptions {
  return {
    mutationKey: fireExternalEventKey,
    mutationFn: (request) => client.fireExternalEvent(request, settings.trigger ? { trigger: settings.trigger } : {}),
    retry: false,
  };
}
