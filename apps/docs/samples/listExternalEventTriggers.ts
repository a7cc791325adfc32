import { createBotConversationClient } from "@bot-conversation/client";

const client = createBotConversationClient({
  baseUrl: "http://127.0.0.1:4010",
  // First: export BOT_CONVERSATION_TOKEN=... (mock: any value; sandbox: sandbox-token)
  token: process.env.BOT_CONVERSATION_TOKEN ?? "",
});

// The external event triggers a bot can fire, with the variables each accepts.
const triggers = await client.listExternalEventTriggers("5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c");
console.log(triggers);
