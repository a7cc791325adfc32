import { describe, expect, test } from "vitest";
import { service } from "./support/description.ts";
import { json, sandboxForTests } from "./support/sandbox.ts";

/** The sandbox's default data, as `pnpm start` serves it. */
const sandbox = await sandboxForTests({ conversations: 200 });
const examples = (service as unknown as { components: { examples: Record<string, { value: unknown }> } }).components.examples;
const exampleValue = <T>(name: string) => examples[name]!.value as T;
const agentStageId = (service as unknown as { components: { parameters: Record<string, { example: string }> } }).components.parameters["AgentStageIdPath"]!
  .example;

describe("the default data holds what the description's examples name, so requests written against the mock run unchanged", () => {
  test("the example bot's conversations are exactly the mock's default search answer", async () => {
    const response = await sandbox.call(`/api/v2/channels/conversations?agentStageId=${agentStageId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(exampleValue("ConversationPageSingle"));
  });

  test("the first and last page examples are the sandbox's pages of two", async () => {
    const first = (await (await sandbox.call(`/api/v2/channels/conversations?agentStageId=${agentStageId}&pageSize=2&pageIndex=0`)).json()) as {
      items: unknown[];
    };
    expect(first.items).toEqual(exampleValue<{ items: unknown[] }>("ConversationPageFirst").items);
    const last = (await (await sandbox.call(`/api/v2/channels/conversations?agentStageId=${agentStageId}&pageSize=2&pageIndex=1`)).json()) as {
      items: unknown[];
    };
    expect(last.items).toEqual(exampleValue<{ items: unknown[] }>("ConversationPageLast").items);
  });

  test("the example bot's triggers are the trigger list example", async () => {
    const response = await sandbox.call(`/api/v1/runtime/simple/external/events/${agentStageId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(exampleValue("ExternalEventTriggerArray"));
  });

  test("the export example is the sandbox's export of that conversation", async () => {
    const exported = exampleValue<{ id: string }>("ConversationExportFull");
    const response = await sandbox.call(`/_sandbox/conversations/${exported.id}/export`);
    expect(await response.json()).toEqual(exported);
  });

  test.each(Object.keys(examples).filter((name) => name.startsWith("Fire")))("the request example %s fires (200, recorded)", async (name) => {
    const body = exampleValue<{ conversationId?: string; externalConversationId?: string; externalEventId: string }>(name);
    const response = await sandbox.call("/api/v1/runtime/simple/external/events", json("POST", body));
    expect({ status: response.status, body: await response.text() }).toEqual({ status: 200, body: "" });
    const fired = (await (await sandbox.call(`/_sandbox/fired-events?externalEventId=${body.externalEventId}`)).json()) as { sent: unknown }[];
    expect(fired.map((event) => event.sent)).toContainEqual({
      conversationId: body.conversationId ?? null,
      externalConversationId: body.externalConversationId ?? null,
    });
  });
});
