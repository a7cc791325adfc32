import { createBotConversationClient } from "@bot-conversation/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openApiBundle } from "@bot-conversation/test-support/openapi-bundle";
import { afterEach, describe, expect, it } from "vitest";
import { description } from "../src/description.ts";
import { binPath } from "./support/cli.ts";
import { fixture } from "./support/fixture.ts";
import { firedEvents, token, useSandbox } from "./support/sandbox.ts";

const generated = useSandbox({ seed: "cli-mcp", conversations: 60 });
const withFixture = useSandbox({ fixture });
const bundle = openApiBundle(description);
const open: Client[] = [];

/** The SDK's own client, talking to `bot-conversation mcp` over stdio. */
async function connect(baseUrl: string, ...flags: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [binPath, "mcp", "--base-url", baseUrl, ...flags], env: { BOT_CONVERSATION_TOKEN: token }, stderr: "pipe" });
  const client = new Client({ name: "cli-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };

describe("bot-conversation mcp", () => {
  it("lists the read tools, and fire_external_event (destructive, not idempotent) only with --allow-fire; input schemas from the description", async () => {
    const readOnly = await connect(generated().url);
    const { tools } = await readOnly.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["search_conversations", "list_external_event_triggers"]);
    const search = tools[0];
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual([
      "agentStageId", "startFromDate", "startToDate", "latestMessageFromDate", "latestMessageToDate", "status", "channelId", "pageSize", "pageIndex", "cursor",
    ]);
    expect(search?.inputSchema.properties?.["status"]).toMatchObject({ enum: ["Active", "Closed", "Operator"] });
    expect(search?.inputSchema.properties?.["pageSize"]).toMatchObject({ type: "integer", minimum: 1 });
    expect(search?.annotations).toMatchObject({ readOnlyHint: true });

    const firing = await connect(generated().url, "--allow-fire");
    const all = (await firing.listTools()).tools;
    expect(all.map((tool) => tool.name)).toEqual(["search_conversations", "list_external_event_triggers", "fire_external_event"]);
    const fire = all[2];
    expect(fire?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false, readOnlyHint: false });
    expect(Object.keys(fire?.inputSchema.properties ?? {})).toEqual(["agentStageId", "conversationId", "externalConversationId", "externalEventId", "externalEventPayload"]);
  });

  it("a search is followed through its cursor to the end: the same conversations as the client's walk, each valid against the description", async () => {
    const mcp = await connect(generated().url);
    const ids: string[] = [];
    let result = (await mcp.callTool({ name: "search_conversations", arguments: { pageSize: 7, status: "Active" } })) as ToolResult;
    let pages = 1;
    for (;;) {
      expect(result.isError).toBeFalsy();
      const { items, nextCursor } = result.structuredContent as { items: { id: string }[]; nextCursor?: string };
      for (const item of items) expect(bundle.problemsOf({ $ref: "#/components/schemas/ConversationSummary" }, item)).toEqual([]);
      // The result is sent once: the text content is a one-line summary of the structured one.
      expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(new RegExp(`^${items.length} conversations of \\d+ matching \\(page \\d+\\)(; more: pass nextCursor as cursor)?\\. They are in the structured content\\.$`)) }]);
      ids.push(...items.map((item) => item.id));
      if (nextCursor === undefined) break;
      result = (await mcp.callTool({ name: "search_conversations", arguments: { cursor: nextCursor } })) as ToolResult;
      pages++;
    }
    const client = createBotConversationClient({ baseUrl: generated().url, token });
    const walked: string[] = [];
    for await (const conversation of client.iterateConversations({ pageSize: 7, status: "Active" })) walked.push(conversation.id);
    expect(ids).toEqual(walked);
    expect(pages).toBe(Math.ceil(walked.length / 7));
    expect(pages).toBeGreaterThan(1);
  });

  it("errors are tool errors naming the argument, or carrying the service's detail; the token never in a result", async () => {
    const mcp = await connect(withFixture().url, "--allow-fire");
    const badSize = (await mcp.callTool({ name: "search_conversations", arguments: { pageSize: 0 } })) as ToolResult;
    expect(badSize).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringMatching(/^pageSize: expected it must be >= 1/) }] });
    const badDate = (await mcp.callTool({ name: "search_conversations", arguments: { startFromDate: "yesterday" } })) as ToolResult;
    expect(badDate.content[0]?.text).toMatch(/^startFromDate: expected it must match format "date-time"/);
    // The client's date rule, not ajv-formats' looser one (which takes an hour-only offset).
    const hourOffset = (await mcp.callTool({ name: "search_conversations", arguments: { startFromDate: "2025-01-01T10:00:00+03" } })) as ToolResult;
    expect(hourOffset).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^startFromDate: expected it must match format "date-time"/) }] });
    const unknownBot = (await mcp.callTool({ name: "list_external_event_triggers", arguments: { agentStageId: "bot-9" } })) as ToolResult;
    expect(unknownBot).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/answered 404: .*bot-9/) }] });
    const badCursor = (await mcp.callTool({ name: "search_conversations", arguments: { cursor: "not-a-cursor" } })) as ToolResult;
    expect(badCursor.content[0]?.text).toBe("cursor: expected the nextCursor of a previous search_conversations result");

    const before = await firedEvents(withFixture());
    const wrongType = (await mcp.callTool({
      name: "fire_external_event",
      arguments: { agentStageId: "bot-1", externalEventId: "order-paid", conversationId: "c-1", externalEventPayload: { amount: "lots" } },
    })) as ToolResult;
    expect(wrongType).toMatchObject({ isError: true, content: [{ text: 'externalEventPayload.amount: expected Number; got "lots"' }] });
    expect(await firedEvents(withFixture())).toEqual(before);
    for (const result of [badSize, badDate, unknownBot, badCursor, wrongType]) expect(JSON.stringify(result)).not.toContain(token);
  });

  it("lists triggers and fires with --allow-fire: the sandbox's journal shows the event", async () => {
    const mcp = await connect(withFixture().url, "--allow-fire");
    const triggers = (await mcp.callTool({ name: "list_external_event_triggers", arguments: { agentStageId: "bot-1" } })) as ToolResult;
    expect(triggers.structuredContent).toEqual({ triggers: fixture.bots[0]?.triggers });
    const fired = (await mcp.callTool({
      name: "fire_external_event",
      arguments: { agentStageId: "bot-1", externalEventId: "order-paid", conversationId: "c-2", externalEventPayload: { amount: 12.5, confirmed: false } },
    })) as ToolResult;
    expect(fired).toMatchObject({ structuredContent: { fired: true, externalEventId: "order-paid", conversationId: "c-2" } });
    expect((await firedEvents(withFixture())).at(-1)).toMatchObject({ externalEventId: "order-paid", conversationId: "c-2", externalEventPayload: { amount: 12.5, confirmed: false } });
    const readOnly = await connect(withFixture().url);
    const refused = (await readOnly.callTool({ name: "fire_external_event", arguments: { agentStageId: "bot-1", externalEventId: "callback-requested", conversationId: "c-2" } })) as ToolResult;
    expect(refused).toMatchObject({ isError: true, content: [{ text: 'name: expected one of search_conversations, list_external_event_triggers; got "fire_external_event"' }] });
  });
});
