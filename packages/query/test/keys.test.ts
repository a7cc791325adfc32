import { QueryClient } from "@tanstack/query-core";
import { afterEach, describe, expect, it } from "vitest";
import {
  botConversationKey,
  conversationsKey,
  externalEventTriggersQueryOptions,
  searchConversationsInfiniteQueryOptions,
  searchConversationsKey,
  searchConversationsQueryOptions,
} from "../src/index.ts";
import { busiestBot, startTestSandbox, type TestSandbox } from "./support/sandbox.ts";

const exampleBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";
let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe("query keys", () => {
  it("are stable: the same filters in another order give the same hash, other filters another", () => {
    const queryClient = new QueryClient();
    const hash = (query: object) => queryClient.getQueryCache().build(queryClient, { queryKey: searchConversationsKey(query) }).queryHash;
    expect(hash({ agentStageId: exampleBot, status: "Active", pageSize: 5 })).toBe(hash({ pageSize: 5, status: "Active", agentStageId: exampleBot }));
    expect(hash({ agentStageId: exampleBot, status: "Active" })).not.toBe(hash({ agentStageId: exampleBot, status: "Closed" }));
    expect(conversationsKey(exampleBot)).toEqual([...botConversationKey, "conversations", exampleBot]);
    expect(conversationsKey()).toEqual([...botConversationKey, "conversations"]);
  });

  it("one invalidateQueries of conversationsKey(bot) refetches every search of that bot, and nothing else", async () => {
    sandbox = await startTestSandbox();
    const { client } = sandbox;
    const otherBot = (await busiestBot(sandbox)).agentStageId;
    const queryClient = new QueryClient();
    const queries = {
      page: searchConversationsQueryOptions(client, { agentStageId: exampleBot, status: "Active" }),
      otherFilters: searchConversationsQueryOptions(client, { agentStageId: exampleBot, channelId: "directline", pageSize: 2 }),
      infinite: searchConversationsInfiniteQueryOptions(client, { agentStageId: exampleBot, pageSize: 1 }),
      otherBot: searchConversationsQueryOptions(client, { agentStageId: otherBot }),
      everyBot: searchConversationsQueryOptions(client, { status: "Closed" }),
      triggers: externalEventTriggersQueryOptions(client, exampleBot),
    };
    for (const [name, options] of Object.entries(queries)) {
      if (name === "infinite") await queryClient.fetchInfiniteQuery(queries.infinite);
      else await queryClient.fetchQuery(options as typeof queries.page);
    }
    const invalidated = () =>
      Object.fromEntries(Object.entries(queries).map(([name, options]) => [name, queryClient.getQueryState(options.queryKey)?.isInvalidated]));
    expect(Object.values(invalidated())).toEqual(Object.values(queries).map(() => false));

    await queryClient.invalidateQueries({ queryKey: conversationsKey(exampleBot) });
    expect(invalidated()).toEqual({ page: true, otherFilters: true, infinite: true, otherBot: false, everyBot: false, triggers: false });

    await queryClient.invalidateQueries({ queryKey: conversationsKey() });
    expect(invalidated()).toEqual({ page: true, otherFilters: true, infinite: true, otherBot: true, everyBot: true, triggers: false });
  });
});
