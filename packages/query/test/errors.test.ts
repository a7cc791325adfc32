import { ApiError, NotFoundError, ServerError } from "@bot-conversation/client";
import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  type BotConversationQueryError,
  externalEventTriggersQueryOptions,
  fireExternalEventMutationOptions,
  searchConversationsQueryOptions,
} from "../src/index.ts";
import { startTestSandbox, type TestSandbox } from "./support/sandbox.ts";

const bot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";
const triggersPath = `GET /api/v1/runtime/simple/external/events/${bot}`;
const firePath = "POST /api/v1/runtime/simple/external/events";
let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** A query client whose defaults would retry everything at once, so that only the factories' own `retry` keeps a request from repeating. */
const eagerQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 0 }, mutations: { retry: 3, retryDelay: 0 } } });

/** The first conversation of the example bot. */
async function firstConversation(current: TestSandbox): Promise<string> {
  const page = await current.client.searchConversations({ agentStageId: bot, pageSize: 1 });
  current.requests.length = 0;
  return page.items[0]!.id;
}

describe("typed errors of the client come through", () => {
  it("a bot the service does not know is the client's NotFoundError, typed, sent once", async () => {
    sandbox = await startTestSandbox();
    const observer = new QueryObserver(eagerQueryClient(), externalEventTriggersQueryOptions(sandbox.client, "no-such-bot"));
    const result = await observer.refetch();
    expectTypeOf(result.error).toEqualTypeOf<BotConversationQueryError | null>();
    expect(result.error).toBeInstanceOf(NotFoundError);
    expect((result.error as NotFoundError).status).toBe(404);
    expect(sandbox.requests).toEqual(["GET /api/v1/runtime/simple/external/events/no-such-bot"]);
  });

  it("a filter the service refuses is the client's ApiError with the 400 and its body", async () => {
    sandbox = await startTestSandbox();
    // @ts-expect-error: the type allows the capitalised values only; the service's 400 is what is tested.
    const options = searchConversationsQueryOptions(sandbox.client, { status: "active" });
    const error = await eagerQueryClient()
      .fetchQuery(options)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(JSON.stringify((error as ApiError).body)).toContain("status");
  });

  it("a 503 the client has already retried (its 3 attempts) is a ServerError, and the query does not retry it again", async () => {
    sandbox = await startTestSandbox();
    await sandbox.control("POST", "faults", { operationId: "listExternalEventTriggers", status: 503, retryAfter: 0, times: 3 });
    const result = await new QueryObserver(eagerQueryClient(), externalEventTriggersQueryOptions(sandbox.client, bot)).refetch();
    expect(result.error).toBeInstanceOf(ServerError);
    expect((result.error as ServerError).status).toBe(503);
    expect(sandbox.requests).toEqual([triggersPath, triggersPath, triggersPath]);
    // The fault is spent: asked again, the list comes.
    const again = await new QueryObserver(eagerQueryClient(), externalEventTriggersQueryOptions(sandbox.client, bot)).refetch();
    expect(again.data?.map((trigger) => trigger.externalEventId)).toEqual(["order-status-changed", "callback-requested"]);
  });
});

describe("fireExternalEventMutationOptions", () => {
  it("fires once, and the sandbox records the event", async () => {
    sandbox = await startTestSandbox();
    const conversationId = await firstConversation(sandbox);
    const observer = new MutationObserver(eagerQueryClient(), fireExternalEventMutationOptions(sandbox.client));
    await observer.mutate({ conversationId, externalEventId: "callback-requested", externalEventPayload: { callbackTime: "2026-11-21T10:00:00+03:00" } });
    expect(observer.getCurrentResult().status).toBe("success");
    expect(sandbox.requests).toEqual([firePath]);
    const fired = (await sandbox.control("GET", "fired-events")) as { conversationId: string; externalEventId: string }[];
    expect(fired.map((event) => [event.conversationId, event.externalEventId])).toEqual([[conversationId, "callback-requested"]]);
  });

  it("is never retried: a 500 for a wrong variable is sent once, even when the query client's default retries 3 times, and carries the service's details", async () => {
    sandbox = await startTestSandbox();
    const conversationId = await firstConversation(sandbox);
    const options = fireExternalEventMutationOptions(sandbox.client);
    expect(options.retry).toBe(false);
    const observer = new MutationObserver(eagerQueryClient(), options);
    const error = await observer
      .mutate({ conversationId, externalEventId: "callback-requested", externalEventPayload: { callbackTime: "tomorrow" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(500);
    expect(JSON.stringify((error as ServerError).details)).toContain("callbackTime");
    expect(observer.getCurrentResult().failureCount).toBe(1);
    expect(sandbox.requests).toEqual([firePath]);
    expect(await sandbox.control("GET", "fired-events")).toEqual([]);
  });

  it("is not retried on a 503 either: one request, the error comes through", async () => {
    sandbox = await startTestSandbox();
    const conversationId = await firstConversation(sandbox);
    await sandbox.control("POST", "faults", { operationId: "fireExternalEvent", status: 503, times: 5 });
    const observer = new MutationObserver(eagerQueryClient(), fireExternalEventMutationOptions(sandbox.client));
    const error = await observer.mutate({ conversationId, externalEventId: "callback-requested" }).catch((caught: unknown) => caught);
    expect((error as ServerError).status).toBe(503);
    expect(sandbox.requests).toEqual([firePath]);
  });

  it("with a trigger, checks the payload first and sends nothing when it does not fit", async () => {
    sandbox = await startTestSandbox();
    const conversationId = await firstConversation(sandbox);
    const [trigger] = await sandbox.client.listExternalEventTriggers(bot);
    sandbox.requests.length = 0;
    const observer = new MutationObserver(eagerQueryClient(), fireExternalEventMutationOptions(sandbox.client, { trigger: trigger! }));
    const error = await observer
      .mutate({ conversationId, externalEventId: trigger!.externalEventId, externalEventPayload: { orderTotal: "149.90" } })
      .catch((caught: unknown) => caught);
    expect((error as Error).name).toBe("EventValidationError");
    expect((error as Error).message).toContain("orderTotal");
    expect(sandbox.requests).toEqual([]);
  });
});
