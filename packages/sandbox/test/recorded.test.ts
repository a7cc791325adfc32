import type { ConversationPage, ConversationSummary } from "@bot-conversation/types";
import { setupServer } from "msw/node";
import { describe, expect, it } from "vitest";
import { conversationOfSummary, createSandbox, fixtureDefects, maxRebuiltMessages, type Sandbox } from "../src/index.ts";
import { createSandboxHandlers } from "../src/msw.ts";

const headers = { "X-Token": "sandbox-token" };

/** Every summary of a bot, walked page by page through `fetcher` (a sandbox's, or the global fetch under MSW). */
async function summariesOf(sandbox: Pick<Sandbox, "fetch">, agentStageId: string, base = "http://sandbox"): Promise<ConversationSummary[]> {
  const items: ConversationSummary[] = [];
  for (let pageIndex = 0; ; pageIndex++) {
    const response = await sandbox.fetch(`${base}/api/v2/channels/conversations?agentStageId=${agentStageId}&pageSize=50&pageIndex=${pageIndex}`, {
      headers,
    });
    const page = (await response.json()) as ConversationPage;
    items.push(...page.items);
    if (!page.hasMore) return items;
  }
}

describe("conversationOfSummary: a summary rebuilt as a conversation", () => {
  it("gives back every summary of the generated data, field for field, once loaded as a fixture", async () => {
    const original = await createSandbox({ conversations: 120, seed: "recorded", inboundDirection: "Incoming" });
    try {
      const bots = await (await original.fetch("http://sandbox/_sandbox/bots", { headers })).json();
      const botIds = (bots as { agentStageId: string }[]).map((bot) => bot.agentStageId);
      const seen = new Map<string, ConversationSummary[]>();
      for (const agentStageId of botIds) seen.set(agentStageId, await summariesOf(original, agentStageId));
      const conversations = [...seen].flatMap(([agentStageId, summaries]) =>
        summaries.map((summary) => {
          const rebuilt = conversationOfSummary(summary, agentStageId);
          if (!("stored" in rebuilt)) throw new Error(rebuilt.refused);
          return rebuilt.stored;
        }),
      );
      expect(conversations.length).toBe(120);
      // Inbound and outbound last messages are both among them, so the direction is shown to follow the rebuilt sender.
      const directions = new Set([...seen.values()].flat().map((summary) => summary.latestMessageDirection));
      expect(directions).toEqual(new Set(["Outbound", "Incoming"]));
      const fixture = { bots: botIds.map((agentStageId) => ({ agentStageId, triggers: [] })), conversations };
      expect(fixtureDefects(fixture)).toEqual([]);
      const replay = await createSandbox({ fixture, inboundDirection: "Incoming" });
      try {
        for (const [agentStageId, summaries] of seen) {
          const replayed = await summariesOf(replay, agentStageId);
          expect(replayed).toEqual(summaries);
        }
      } finally {
        await replay.close();
      }
      // The MSW handlers serve the same fixture the same way.
      const server = setupServer(...createSandboxHandlers({ fixture, inboundDirection: "Incoming", baseUrl: "https://bots.example.com" }));
      server.listen({ onUnhandledFrame: "error" });
      try {
        for (const [agentStageId, summaries] of seen) expect(await summariesOf({ fetch }, agentStageId, "https://bots.example.com")).toEqual(summaries);
      } finally {
        server.close();
      }
    } finally {
      await original.close();
    }
  });

  const summary: ConversationSummary = {
    id: "c-1",
    channelId: "directline",
    status: "Active",
    messagesCount: 3,
    members: [{ id: "bot-1", name: null, nickname: null, role: "Bot" }],
    startedOn: "2026-01-02T10:00:00+03:00",
    channelData: null,
    latestMessageOn: "2026-01-02T10:05:00+03:00",
    latestMessageDirection: "Inbound",
    latestMessageText: "hello",
    closingStatus: null,
    closingReason: null,
  };

  it("makes up a nameless member of the sender's role when the summary lists none, and keeps the earlier messages empty", () => {
    const rebuilt = conversationOfSummary(summary, "bot-1");
    if (!("stored" in rebuilt)) throw new Error(rebuilt.refused);
    const { history, members } = rebuilt.stored.conversation;
    expect(members).toEqual([{ id: "bot-1", name: null, role: "Bot" }]);
    expect(history.map((activity) => [activity.timestamp, "text" in activity ? activity.text : undefined])).toEqual([
      [null, ""],
      [null, ""],
      ["2026-01-02T10:05:00+03:00", "hello"],
    ]);
    expect(history.at(-1)).toMatchObject({ from: { id: "c-1:user", name: null, role: "User" }, recipient: { id: "bot-1", role: "Bot" } });
  });

  it("refuses a message count it cannot hold, naming it", () => {
    expect(conversationOfSummary({ ...summary, messagesCount: maxRebuiltMessages + 1 }, "bot-1")).toEqual({
      refused: `messagesCount: ${maxRebuiltMessages + 1} messages, more than the ${maxRebuiltMessages} a rebuilt conversation holds`,
    });
    expect(conversationOfSummary({ ...summary, messagesCount: -1 }, "bot-1")).toMatchObject({ refused: expect.stringContaining("messagesCount") });
  });
});
