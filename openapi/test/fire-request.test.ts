import { describe, expect, it } from "vitest";
import { problemsOf } from "./support/description.js";

const base = { externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "10482" } };
const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";
const externalConversationId = "8d41b7a2-61c4-4d9e-b0f3-5a7c2e9d1b46|livechat";

describe("fire request", () => {
  it.each([
    ["by conversationId", { ...base, conversationId }],
    ["by externalConversationId", { ...base, externalConversationId }],
    ["by both identifiers", { ...base, conversationId, externalConversationId }],
    ["without a payload", { externalEventId: base.externalEventId, conversationId }],
    ["with a File value", { ...base, conversationId, externalEventPayload: { invoice: { name: "a.pdf", fileUrl: "https://files.example.com/a.pdf" } } }],
  ])("accepts a request %s", (_case, request) => {
    expect(problemsOf("FireExternalEventRequest", request)).toEqual([]);
  });

  it.each([
    ["without either conversation identifier", base],
    ["without externalEventId", { conversationId }],
    ["with an empty conversationId", { ...base, conversationId: "" }],
    ["with an empty externalEventId", { ...base, externalEventId: "", conversationId }],
    ["with a null variable value", { ...base, conversationId, externalEventPayload: { orderNumber: null } }],
    ["with an array variable value", { ...base, conversationId, externalEventPayload: { orderNumber: ["10482"] } }],
  ])("rejects a request %s", (_case, request) => {
    expect(problemsOf("FireExternalEventRequest", request)).not.toEqual([]);
  });
});
