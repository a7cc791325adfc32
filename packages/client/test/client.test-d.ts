import type { ConversationPage, ConversationSummary, ExternalEventTrigger } from "@bot-conversation/types";
import { describe, expectTypeOf, test } from "vitest";
import { createBotConversationClient } from "../src/index.js";

const client = createBotConversationClient({ baseUrl: "http://127.0.0.1:4010", token: "t" });

describe("the public API is typed from the generated declarations", () => {
  test("results", () => {
    expectTypeOf(client.searchConversations()).resolves.toEqualTypeOf<ConversationPage>();
    expectTypeOf(client.listExternalEventTriggers("bot")).resolves.toEqualTypeOf<ExternalEventTrigger[]>();
    expectTypeOf(client.iterateConversations()).toMatchTypeOf<AsyncIterable<ConversationSummary>>();
    expectTypeOf(client.fireExternalEvent({ conversationId: "c", externalEventId: "e" })).resolves.toBeVoid();
  });

  test("requests", () => {
    // @ts-expect-error a fire request must name the conversation (conversationId or externalConversationId)
    void client.fireExternalEvent({ externalEventId: "e" });
    // @ts-expect-error dates are ISO 8601 strings, as the query string carries them; a Date is refused at run time too
    void client.searchConversations({ startFromDate: new Date() });
    // @ts-expect-error status only takes the service's values
    void client.searchConversations({ status: "active" });
    // @ts-expect-error token is required: every operation needs X-Token
    createBotConversationClient({ baseUrl: "http://127.0.0.1:4010" });
    expectTypeOf(createBotConversationClient).toBeCallableWith({ baseUrl: "x", token: async () => "t", timeoutMs: 1, maxRetries: 0, logger: console.debug });
    expectTypeOf(client.searchConversations).toBeCallableWith({}, { onResponse: (response: Response) => void response.status });
  });
});
