import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, inject, test } from "vitest";
import { ApiError, AuthenticationError, createBotConversationClient, NotFoundError, platformConversationId } from "../src/index.js";

const bundle = JSON.parse(await readFile(createRequire(import.meta.url).resolve("@bot-conversation/openapi/openapi.json"), "utf8")) as {
  components: { examples: Record<string, { value: unknown }> };
};
const example = (name: string): unknown => bundle.components.examples[name]?.value;

const baseUrl = inject("prismUrl");
const client = createBotConversationClient({ baseUrl, token: "prism-token" });
const agentStageId = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";
// The client refuses an empty token before sending; to see Prism's own 401, this fetch drops the header on the way out.
const anonymous = createBotConversationClient({
  baseUrl,
  token: "dropped-before-sending",
  fetch: (request, init) => {
    request.headers.delete("x-token");
    return fetch(request, init);
  },
});

describe("against a real Prism mock of the bundled description", () => {
  test("searchConversations returns the typed page", async () => {
    const page = await client.searchConversations({ agentStageId, status: "Active", pageSize: 20 });
    expect(page).toEqual(example("ConversationPageSingle"));
  });

  test("listExternalEventTriggers resolves to the array of triggers", async () => {
    const triggers = await client.listExternalEventTriggers(agentStageId);
    expect(triggers).toEqual(example("ExternalEventTriggerArray"));
    expect(triggers.map((trigger) => trigger.externalEventId)).toContain("order-status-changed");
  });

  test("fireExternalEvent by conversationId and by platform conversation id resolve", async () => {
    await expect(
      client.fireExternalEvent({
        conversationId: "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c",
        externalEventId: "order-status-changed",
        externalEventPayload: { orderNumber: "10482" },
      }),
    ).resolves.toBeUndefined();
    await expect(
      client.fireExternalEvent({
        externalConversationId: platformConversationId("8d41b7a2-61c4-4d9e-b0f3-5a7c2e9d1b46"),
        externalEventId: "order-status-changed",
      }),
    ).resolves.toBeUndefined();
  });

  test("fireExternalEvent checked against the trigger Prism lists", async () => {
    const [trigger] = await client.listExternalEventTriggers(agentStageId);
    await expect(
      client.fireExternalEvent(
        { conversationId: "c-1", externalEventId: "order-status-changed", externalEventPayload: { orderTotal: 149.9, isPaid: true } },
        { trigger: trigger! },
      ),
    ).resolves.toBeUndefined();
  });

  test.each([
    ["searchConversations", () => anonymous.searchConversations({ agentStageId })],
    ["listExternalEventTriggers", () => anonymous.listExternalEventTriggers(agentStageId)],
    ["fireExternalEvent", () => anonymous.fireExternalEvent({ conversationId: "c-1", externalEventId: "order-status-changed" })],
  ])("%s without a token is an AuthenticationError (401)", async (_name, call) => {
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401 });
  });

  test.each([
    ["listExternalEventTriggers", () => client.listExternalEventTriggers(agentStageId, { headers: { Prefer: "code=404" } })],
    [
      "fireExternalEvent",
      () => client.fireExternalEvent({ conversationId: "missing", externalEventId: "order-status-changed" }, { headers: { Prefer: "code=404" } }),
    ],
  ])("%s with Prefer: code=404 is a NotFoundError carrying the body", async (_name, call) => {
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, body: { message: expect.any(String) } });
  });

  test("client-wide headers reach Prism too", async () => {
    const notFound = createBotConversationClient({ baseUrl, token: "t", headers: { Prefer: "code=404" } });
    await expect(notFound.listExternalEventTriggers(agentStageId)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("iterateConversations reads every page, following hasMore (firstPage, then lastPage)", async () => {
    const queries: unknown[] = [];
    const conversations = [];
    for await (const conversation of client.iterateConversations(
      { agentStageId, pageSize: 2 },
      {
        headers: (query) => {
          queries.push(query.pageIndex);
          return { Prefer: query.pageIndex === undefined ? "example=firstPage" : "example=lastPage" };
        },
      },
    )) {
      conversations.push(conversation.id);
    }
    const pages = ["ConversationPageFirst", "ConversationPageLast"].map((name) => example(name) as { items: { id: string }[] });
    expect(conversations).toEqual(pages.flatMap((page) => page.items.map((item) => item.id)));
    expect(queries).toEqual([undefined, 1]);
  });
});

describe("a refusal from Prism says its own reason in the error's message", () => {
  test("a search with a status the description does not list", async () => {
    const error = (await client.searchConversations({ agentStageId, status: "closed" as never }).catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    const body = error.body as { validation?: { message: string }[]; detail?: string; title?: string; message?: string };
    const reason = body.validation?.[0]?.message ?? body.detail ?? body.title ?? body.message;
    expect(reason).toEqual(expect.any(String));
    // Prism's own words, quoted as JSON (cut at 120 characters when longer).
    expect(error.message).toMatch(new RegExp(`^GET /api/v2/channels/conversations answered ${error.status}: "${reason!.slice(0, 40)}`));
    expect(error.message).toContain(JSON.stringify(reason).slice(0, 120));
  });
});
