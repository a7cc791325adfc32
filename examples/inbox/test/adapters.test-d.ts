/**
 * The factories' options go to every hook and method of @tanstack/react-query as they are, with the
 * data and error types carried through (run by vitest's typecheck: a type error fails the run).
 */
import { createBotConversationClient } from "@bot-conversation/client";
import {
  type BotConversationQueryError,
  type ConversationPageParam,
  externalEventTriggersQueryOptions,
  fireExternalEventMutationOptions,
  searchConversationsInfiniteQueryOptions,
  searchConversationsQueryOptions,
} from "@bot-conversation/query";
import type { ConversationPage, ExternalEventTrigger, FireExternalEventRequest } from "@bot-conversation/types";
import { type InfiniteData, QueryClient, useInfiniteQuery, useMutation, useQuery, useSuspenseInfiniteQuery, useSuspenseQuery } from "@tanstack/react-query";
import { expectTypeOf, test } from "vitest";

const client = createBotConversationClient({ baseUrl: "http://127.0.0.1:4011", token: "sandbox-token" });
const page = searchConversationsQueryOptions(client, { agentStageId: "bot" });
const pages = searchConversationsInfiniteQueryOptions(client, { agentStageId: "bot" });
const triggers = externalEventTriggersQueryOptions(client, "bot");
const fire = fireExternalEventMutationOptions(client);
type Pages = InfiniteData<ConversationPage, ConversationPageParam>;

test("useQuery and useSuspenseQuery take a page's and the triggers' options, data and error typed", () => {
  expectTypeOf(useQuery(page).data).toEqualTypeOf<ConversationPage | undefined>();
  expectTypeOf(useQuery(page).error).toEqualTypeOf<BotConversationQueryError | null>();
  expectTypeOf(useQuery(triggers).data).toEqualTypeOf<ExternalEventTrigger[] | undefined>();
  expectTypeOf(useSuspenseQuery(page).data).toEqualTypeOf<ConversationPage>();
  expectTypeOf(useSuspenseQuery(triggers).error).toEqualTypeOf<BotConversationQueryError | null>();
});

test("useInfiniteQuery and useSuspenseInfiniteQuery take the infinite search's options, pages and error typed", () => {
  expectTypeOf(useInfiniteQuery(pages).data).toEqualTypeOf<Pages | undefined>();
  expectTypeOf(useInfiniteQuery(pages).error).toEqualTypeOf<BotConversationQueryError | null>();
  expectTypeOf(useSuspenseInfiniteQuery(pages).data).toEqualTypeOf<Pages>();
});

test("useMutation takes the fire's options: its variables are the fire request, its error typed", () => {
  expectTypeOf(useMutation(fire).mutate).parameter(0).toEqualTypeOf<FireExternalEventRequest>();
  expectTypeOf(useMutation(fire).error).toEqualTypeOf<BotConversationQueryError | null>();
});

test("react-query's QueryClient fetches with them and reads the cache typed by the keys", () => {
  const queryClient = new QueryClient();
  expectTypeOf(queryClient.fetchQuery(page)).resolves.toEqualTypeOf<ConversationPage>();
  expectTypeOf(queryClient.fetchInfiniteQuery(pages)).resolves.toEqualTypeOf<Pages>();
  expectTypeOf(queryClient.getQueryData(triggers.queryKey)).toEqualTypeOf<ExternalEventTrigger[] | undefined>();
  expectTypeOf(queryClient.getQueryData(pages.queryKey)).toEqualTypeOf<Pages | undefined>();
});
