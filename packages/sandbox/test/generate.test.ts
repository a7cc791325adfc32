import { createHash } from "node:crypto";
import type { ConversationExport, MessageActivity } from "@bot-conversation/types";
import { describe, expect, test } from "vitest";
import { exampleData } from "../src/data/examples.ts";
import { generateData } from "../src/data/generate.ts";
import { equalityFilters } from "../src/engine/filters.ts";
import { columnsOf, openSummaryOf } from "../src/engine/summary.ts";
import { schemaProblems, service } from "./support/description.ts";

const enumOf = (name: string) => (service as unknown as { components: { schemas: Record<string, { enum: string[] }> } }).components.schemas[name]!.enum;
const generated = generateData("bot-conversation", 200);
const conversations = [...generated.conversations];
const exports: ConversationExport[] = conversations.map((entry) => entry.conversation);
const exampleCount = exampleData().conversations.length;
const messages = exports.flatMap((conversation) => conversation.history.filter((activity): activity is MessageActivity => activity.type === "Message"));

describe("generated data", () => {
  test("is the same for the same seed and count, and differs for another seed", () => {
    const again = generateData("bot-conversation", 200);
    expect(again.bots).toEqual(generated.bots);
    expect([...again.conversations]).toEqual(conversations);
    expect([...generateData("another seed", 200).conversations].map((entry) => entry.conversation.id)).not.toEqual(
      exports.map((conversation) => conversation.id),
    );
  });

  test("draws the same data as it always has: the bots and 3,000 conversations of two seeds, hashed", () => {
    // Fixtures, examples and tests elsewhere name generated identifiers and dates: a change to the generator's speed
    // must leave every conversation as it was (these hashes are of the data before the generator wrote UUIDs into a
    // buffer and left the history's identifiers out of what the index reads).
    const hashOf = (seed: string) => {
      const data = generateData(seed, 3000);
      const hash = createHash("sha256").update(JSON.stringify(data.bots));
      for (const stored of data.conversations) hash.update(JSON.stringify(stored));
      return hash.digest("hex");
    };
    expect(hashOf("bot-conversation")).toBe("a77b4bf7d855fd0205a65d4f43cc0b145c65e81a68e9c3a22095a311cef4313d");
    expect(hashOf("another")).toBe("1d9600ed7cf69cb6d63307e5dd8bea4a1a38f8b800debf695aa8eee527ee80b6");
  });

  test("the form the search index reads is the conversation but for its history's identifiers and its events' timestamps, left empty", () => {
    // Everything the index and a page read (the columns, each filter's value, the summary) is the same from either form.
    const data = generateData("bot-conversation", 3000);
    for (let index = 0; index < data.count; index++) {
      const full = data.conversationAt(index);
      const searched = data.searchedAt(index);
      expect(columnsOf(searched)).toEqual(columnsOf(full));
      expect(equalityFilters.map((filter) => filter.valueOf(searched))).toEqual(equalityFilters.map((filter) => filter.valueOf(full)));
      expect(openSummaryOf(searched)).toBe(openSummaryOf(full));
      // Only identifiers inside the history and the events' timestamps differ: emptied, every other value and the shape kept.
      const emptied = full.conversation.history.map((activity) => ({
        ...activity,
        id: "",
        ...(activity.type === "Event" ? { timestamp: "" } : {}),
        ...("scenarioId" in activity && activity.scenarioId !== null ? { scenarioId: "" } : {}),
        ...("recognizedIntents" in activity && activity.recognizedIntents !== null
          ? { recognizedIntents: activity.recognizedIntents.map((intent) => ({ ...intent, id: "" })) }
          : {}),
      }));
      expect(searched.conversation.history).toEqual(index < exampleCount ? full.conversation.history : emptied);
      expect({ ...searched.conversation, history: [] }).toEqual({ ...full.conversation, history: [] });
    }
  });

  test("every export is valid against the description's strict ConversationExport", () => {
    expect(exports.flatMap((conversation) => schemaProblems("ConversationExport", conversation))).toEqual([]);
    expect(conversations.every((entry) => /[+-]\d\d:\d\d$|Z$/.test(entry.startedOn) && !Number.isNaN(Date.parse(entry.startedOn)))).toBe(true);
  });

  test("several bots, each with triggers covering all seven variable types", () => {
    expect(generated.bots.length).toBeGreaterThanOrEqual(3);
    for (const bot of generated.bots) {
      expect(bot.triggers.flatMap((trigger) => schemaProblems("ExternalEventTrigger", trigger))).toEqual([]);
      const types = new Set(bot.triggers.flatMap((trigger) => Object.values(trigger.parameters).map((parameter) => parameter.type)));
      expect([...types].sort()).toEqual([...enumOf("VariableType")].sort());
    }
    expect(new Set(conversations.map((entry) => entry.agentStageId))).toEqual(new Set(generated.bots.map((bot) => bot.agentStageId)));
  });

  test("every channel in every status, every closing status and reason", () => {
    const pairs = new Set(exports.map((conversation) => `${conversation.channelId} ${conversation.status}`));
    for (const channel of ["directline", "platform", "messenger_a", "messenger_b"]) {
      for (const status of enumOf("ConversationStatus")) expect(pairs).toContain(`${channel} ${status}`);
    }
    // Even the smallest dataset that can hold them, after the description's example conversations, has every pair.
    const drawn = [...generateData("x", exampleCount + 12).conversations].slice(exampleCount);
    expect(new Set(drawn.map((entry) => `${entry.conversation.channelId} ${entry.conversation.status}`)).size).toBe(12);
    expect(new Set(exports.map((conversation) => conversation.closingStatus))).toEqual(new Set([...enumOf("ConversationClosingStatus"), null]));
    expect(new Set(exports.map((conversation) => conversation.closingReason))).toEqual(new Set([...enumOf("ConversationClosingReason"), null]));
  });

  test("drawn histories of about ten activities, with all eleven event kinds and rich messages", () => {
    const lengths = exports.slice(exampleCount).map((conversation) => conversation.history.length);
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(7);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(13);
    const kinds = new Set(
      exports.flatMap((conversation) => conversation.history.flatMap((activity) => (activity.type === "Event" ? [activity.eventName] : []))),
    );
    expect([...kinds].sort()).toEqual([...enumOf("EventName")].sort());
    expect(messages.some((message) => message.buttons?.some((button) => button.isSelected))).toBe(true);
    expect(messages.some((message) => (message.recognizedIntents?.length ?? 0) > 0)).toBe(true);
    expect(messages.some((message) => (message.knowledgeBaseAnswers?.length ?? 0) > 0)).toBe(true);
    expect(messages.some((message) => (message.attachments?.length ?? 0) > 0)).toBe(true);
  });

  test("platform conversations, and only they, carry a platform session id, each unique", () => {
    const platform = exports.filter((conversation) => conversation.channelId === "platform");
    expect(platform.every((conversation) => conversation.channelData?.platform.session.id)).toBe(true);
    expect(exports.filter((conversation) => conversation.channelId !== "platform").every((conversation) => conversation.channelData === null)).toBe(true);
    const sessions = platform.map((conversation) => conversation.channelData!.platform.session.id);
    expect(new Set(sessions).size).toBe(sessions.length);
  });
});
