import { createBotConversationClient, NotFoundError } from "@bot-conversation/client";

const client = createBotConversationClient({
  baseUrl: "http://127.0.0.1:4010",
  // First: export BOT_CONVERSATION_TOKEN=... (mock: any value; sandbox: sandbox-token)
  token: process.env.BOT_CONVERSATION_TOKEN ?? "",
});

try {
  await client.fireExternalEvent({
    conversationId: "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c",
    externalEventId: "order-status-changed",
    externalEventPayload: { orderNumber: "10482" },
  });
} catch (error) {
  // 404: the trigger or the conversation does not exist.
  if (error instanceof NotFoundError) console.error("No such trigger or conversation");
  else throw error;
}
