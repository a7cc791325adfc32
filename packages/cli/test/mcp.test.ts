import { createServer } from "node:http";
import { createBotConversationClient } from "@bot-conversation/client";
import { documentValidator } from "@bot-conversation/openapi/ajv";
import { conversation, page } from "@bot-conversation/test-support/hostile-server";
import { listenOnLoopback } from "@bot-conversation/test-support/loopback";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterEach, describe, expect, it } from "vitest";
import { description, parametersOf } from "../src/description.ts";
import { thirdPartyNotice } from "../src/mcp/tools.ts";
import { binPath, runCli } from "./support/cli.ts";
import { fixture } from "./support/fixture.ts";
import { firedEvents, token, useSandbox } from "./support/sandbox.ts";

const generated = useSandbox({ seed: "cli-mcp", conversations: 60 });
const withFixture = useSandbox({ fixture });
const bundle = documentValidator(description);
const open: Client[] = [];

/**
 * The SDK's own client, talking to `bot-conversation mcp` over stdio. It lists the tools first, as a
 * host does: from then on its `callTool` checks every structured result against the tool's `outputSchema`
 * (and throws when one does not fit).
 */
async function connect(baseUrl: string, ...flags: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, "mcp", "--base-url", baseUrl, ...flags],
    env: { BOT_CONVERSATION_TOKEN: token },
    stderr: "pipe",
  });
  const client = new Client({ name: "cli-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  await client.listTools();
  return client;
}

/** The SDK's validator of a tool's `outputSchema` (the one its client applies), as a function of a result. */
const outputValidator = (schema: unknown) => new AjvJsonSchemaValidator().getValidator(schema as Parameters<AjvJsonSchemaValidator["getValidator"]>[0]);

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
    // The description's parameters of the search, then the cursor: a parameter added to the description is an argument with no edit.
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual([...parametersOf("searchConversations").map((parameter) => parameter.name), "cursor"]);
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["agentStageId", "startFromDate", "status", "pageSize"]));
    expect(search?.inputSchema.properties?.["status"]).toMatchObject({ enum: ["Active", "Closed", "Operator"] });
    expect(search?.inputSchema.properties?.["pageSize"]).toMatchObject({ type: "integer", minimum: 1 });
    expect(search?.annotations).toMatchObject({ readOnlyHint: true });

    const firing = await connect(generated().url, "--allow-fire");
    const all = (await firing.listTools()).tools;
    expect(all.map((tool) => tool.name)).toEqual(["search_conversations", "list_external_event_triggers", "fire_external_event"]);
    const fire = all[2];
    expect(fire?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false, readOnlyHint: false });
    expect(Object.keys(fire?.inputSchema.properties ?? {})).toEqual([
      "agentStageId",
      "conversationId",
      "externalConversationId",
      "externalEventId",
      "externalEventPayload",
    ]);
    // Every tool declares what its structured result holds, made of the description's schemas.
    expect(all.map((tool) => [tool.name, tool.outputSchema?.required])).toEqual([
      ["search_conversations", ["items", "pageIndex", "pageSize", "totalItemCount"]],
      ["list_external_event_triggers", ["triggers"]],
      ["fire_external_event", ["fired", "externalEventId"]],
    ]);
    expect(all[0]?.outputSchema?.properties?.["items"]).toMatchObject({
      type: "array",
      items: { title: "ConversationSummary", required: expect.arrayContaining(["id", "status", "startedOn"]) },
    });
    expect(all[1]?.outputSchema?.properties?.["triggers"]).toMatchObject({ type: "array", items: { title: "ExternalEventTrigger" } });
  });

  it("descriptions are written for an agent: what the tool does, what a result holds, how to read on; no operationId, no variant the tool lacks, no sentence twice", async () => {
    const { tools } = await (await connect(generated().url, "--allow-fire")).listTools();
    const texts = (value: unknown): string[] =>
      typeof value !== "object" || value === null
        ? []
        : Object.entries(value).flatMap(([key, entry]) => (key === "description" && typeof entry === "string" ? [entry] : texts(entry)));
    for (const tool of tools) {
      const all = texts(tool);
      for (const text of all) {
        expect(text, tool.name).not.toMatch(/searchConversations|listExternalEventTriggers|fireExternalEvent|two variants|operation `/);
        const sentences = text.split(/(?<=\.) +/);
        expect(new Set(sentences).size, text).toBe(sentences.length);
      }
      expect(tool.description).toContain(thirdPartyNotice);
      expect(tool.description?.split(thirdPartyNotice)).toHaveLength(2);
    }
    expect(tools[0]?.description).toMatch(/Returns one page: `items`.*`nextCursor`: call again with only `cursor` set to it for the next page/);
    expect(tools[1]?.description).toContain("Returns `triggers`");
    expect(tools[2]?.description).toContain("Returns `fired: true`");
  });

  it("every structured result fits its tool's outputSchema, by the SDK's own validator", async () => {
    const mcp = await connect(withFixture().url, "--allow-fire");
    const { tools } = await mcp.listTools();
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.outputSchema;
    const results: [string, ToolResult][] = [
      ["search_conversations", (await mcp.callTool({ name: "search_conversations", arguments: { pageSize: 2 } })) as ToolResult],
      ["list_external_event_triggers", (await mcp.callTool({ name: "list_external_event_triggers", arguments: { agentStageId: "bot-1" } })) as ToolResult],
      [
        "fire_external_event",
        (await mcp.callTool({
          name: "fire_external_event",
          arguments: { agentStageId: "bot-1", externalEventId: "order-paid", conversationId: "c-2", externalEventPayload: { amount: 1, confirmed: true } },
        })) as ToolResult,
      ],
    ];
    for (const [name, result] of results) {
      expect(result.isError, name).toBeFalsy();
      expect(outputValidator(schemaOf(name))(result.structuredContent), name).toMatchObject({ valid: true });
    }
    expect(results[0]?.[1].structuredContent).toMatchObject({ pageSize: 2, nextCursor: expect.any(String) });
    // The validator is no formality: a result without its items fails it.
    expect(outputValidator(schemaOf("search_conversations"))({ pageIndex: 0, pageSize: 2, totalItemCount: 0 })).toMatchObject({ valid: false });
  });

  it("a service answer that does not fit the description is a tool error naming the field, never a result that breaks the outputSchema", async () => {
    const server = await listenOnLoopback(
      createServer((request, response) => {
        request.resume();
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(page([{ ...conversation("c-1", "text"), status: "Weird" }])));
      }),
    );
    try {
      const mcp = await connect(server.url);
      const result = (await mcp.callTool({ name: "search_conversations", arguments: {} })) as ToolResult;
      expect(result).toMatchObject({
        isError: true,
        content: [{ text: `The server's answer does not fit the description: items.0.status: expected one of Active, Closed, Operator; got "Weird"` }],
      });
      expect(result.structuredContent).toBeUndefined();
    } finally {
      await Promise.all(open.splice(0).map((client) => client.close()));
      await server.close();
    }
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
      expect(result.content).toEqual([
        {
          type: "text",
          text: expect.stringMatching(
            new RegExp(
              `^${items.length} conversations of \\d+ matching \\(page \\d+\\)(; more: pass nextCursor as cursor)?\\. They are in the structured content\\.$`,
            ),
          ),
        },
      ]);
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
    expect(badSize).toMatchObject({ isError: true, content: [{ type: "text", text: "pageSize: expected an integer of at least 1; got 0" }] });
    const badDate = (await mcp.callTool({ name: "search_conversations", arguments: { startFromDate: "yesterday" } })) as ToolResult;
    expect(badDate.content[0]?.text).toBe('startFromDate: expected an ISO 8601 date-time such as 2026-11-18T00:00:00+03:00; got "yesterday"');
    // The client's date rule, not ajv-formats' looser one (which takes an hour-only offset).
    const hourOffset = (await mcp.callTool({ name: "search_conversations", arguments: { startFromDate: "2025-01-01T10:00:00+03" } })) as ToolResult;
    expect(hourOffset).toMatchObject({
      isError: true,
      content: [{ text: 'startFromDate: expected an ISO 8601 date-time such as 2026-11-18T00:00:00+03:00; got "2025-01-01T10:00:00+03"' }],
    });
    const several = (await mcp.callTool({ name: "search_conversations", arguments: { status: "Nope", pageSize: "ten", foo: 1 } })) as ToolResult;
    expect(several.content[0]?.text?.split("; got ").length).toBeGreaterThan(2);
    expect(several.content[0]?.text).toContain('status: expected one of Active, Closed, Operator; got "Nope"');
    expect(several.content[0]?.text).toContain('pageSize: expected an integer of at least 1; got "ten"');
    expect(several.content[0]?.text).toContain("foo: expected only the properties agentStageId, startFromDate");
    const noBot = (await mcp.callTool({ name: "list_external_event_triggers", arguments: {} })) as ToolResult;
    expect(noBot.content[0]?.text).toBe("agentStageId: expected a string; got nothing");
    const nullValue = (await mcp.callTool({
      name: "fire_external_event",
      arguments: { agentStageId: "bot-1", externalEventId: "order-paid", conversationId: "c-1", externalEventPayload: { amount: null } },
    })) as ToolResult;
    expect(nullValue.content[0]?.text).toBe("externalEventPayload.amount: expected a string, a number, true or false, or an object; got null");
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

  it("a wrong value is said in the same words as the CLI's: only the label differs (the argument, the flag)", async () => {
    const mcp = await connect(withFixture().url);
    for (const [name, flag, value] of [
      ["pageSize", "--page-size", "ten"],
      ["status", "--status", "Nope"],
      ["startFromDate", "--start-from-date", "2025-01-01 10:00:00Z"],
    ] as const) {
      const tool = (await mcp.callTool({ name: "search_conversations", arguments: { [name]: value } })) as ToolResult;
      const cli = await runCli(["search", flag, value], { BOT_CONVERSATION_BASE_URL: withFixture().url, BOT_CONVERSATION_TOKEN: token });
      expect(cli.code).toBe(2);
      expect(`error: ${flag}${tool.content[0]?.text?.slice(name.length)}\n`).toBe(cli.stderr);
    }
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
    expect((await firedEvents(withFixture())).at(-1)).toMatchObject({
      externalEventId: "order-paid",
      conversationId: "c-2",
      externalEventPayload: { amount: 12.5, confirmed: false },
    });
    const readOnly = await connect(withFixture().url);
    const refused = (await readOnly.callTool({
      name: "fire_external_event",
      arguments: { agentStageId: "bot-1", externalEventId: "callback-requested", conversationId: "c-2" },
    })) as ToolResult;
    expect(refused).toMatchObject({
      isError: true,
      content: [{ text: 'name: expected one of search_conversations, list_external_event_triggers; got "fire_external_event"' }],
    });
  });
});
