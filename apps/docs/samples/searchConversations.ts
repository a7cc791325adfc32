import { createBotConversationClient } from "@bot-conversation/client";

const client = createBotConversationClient({
  baseUrl: "http://127.0.0.1:4010",
  // First: export BOT_CONVERSATION_TOKEN=... (mock: any value; sandbox: sandbox-token)
  token: process.env.BOT_CONVERSATION_TOKEN ?? "",
});

// One page of a bot's active conversations.
const page = await client.searchConversations({
  agentStageId: "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c",
  status: "Active",
  pageSize: 20,
});
console.log(page);

// Every matching conversation, page after page.
for await (const conversation of client.iterateConversations({ agentStageId: "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c" })) {
  console.log(conversation.id);
}
