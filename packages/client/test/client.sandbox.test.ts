/**
 * The client end to end against the sandbox (`packages/sandbox`): the service's rules over real data,
 * on a real HTTP server on 127.0.0.1. The sandbox is imported by path rather than as a dependency,
 * because it depends on this client (its payload check is `validateEventPayload`); turbo builds it
 * before these tests (`packages/client/turbo.json`).
 */
import { startTestSandboxServer } from "@bot-conversation/test-support/sandbox";
import { describe, expect, onTestFinished, test } from "vitest";
import { type SandboxOptions, startSandboxServer } from "../../sandbox/src/index.ts";
import {
  AuthenticationError,
  type BotConversationClient,
  createBotConversationClient,
  NotFoundError,
  platformConversationId,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
} from "../src/index.js";

/** A sandbox on loopback with generated data (and the given switches), stopped when the test ends, a client of it, and its control API. */
async function sandbox(options: Partial<SandboxOptions> = {}, clientOptions: { timeoutMs?: number } = {}) {
  const server = await startTestSandboxServer(startSandboxServer, { conversations: 45, ...options });
  onTestFinished(() => server.stop());
  const client = createBotConversationClient({ baseUrl: server.url, token: server.token, ...clientOptions });
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/_sandbox/${path}`, {
      method,
      headers: { "x-token": server.token, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.status === 204 ? undefined : ((await response.json()) as unknown);
  };
  return { server, client, control };
}

/** A conversation of the sandbox with its bot, found through the client itself. */
async function someConversation(client: BotConversationClient, channelId?: string) {
  const { items } = await client.searchConversations({ pageSize: 1, ...(channelId ? { channelId } : {}) });
  const conversation = items[0]!;
  const agentStageId = conversation.members.find((member) => member.role === "Bot")!.id;
  return { conversation, agentStageId };
}

describe("against the sandbox", () => {
  test("searchConversations applies the filters: every item matches, and the total is the count", async () => {
    const { client } = await sandbox();
    const all = await client.searchConversations({ pageSize: 100 });
    const page = await client.searchConversations({ status: "Closed", channelId: "platform", pageSize: 100 });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((item) => item.status === "Closed" && item.channelId === "platform")).toBe(true);
    expect(page.totalItemCount).toBe(all.items.filter((item) => item.status === "Closed" && item.channelId === "platform").length);
  });

  test("a refused search's message names the parameter and what was expected, from the sandbox's body", async () => {
    const { client } = await sandbox();
    const error = await client.searchConversations({ pageSize: "many" as unknown as number }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/answered 400: .*query\.pageSize: expected an integer of at least 1; got \\"many\\"/);
  });

  test("a refused fire's message names the variable and the type it expects, from the sandbox's 500", async () => {
    const { client } = await sandbox();
    const { conversation } = await someConversation(client);
    const error = await client
      .fireExternalEvent({ conversationId: conversation.id, externalEventId: "order-status-changed", externalEventPayload: { orderTotal: "ten" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as Error).message).toContain("orderTotal: expected Number");
  });

  test.each([0, 1] as const)("iterateConversations reads every conversation once when pages count from %i", async (pageBase) => {
    const { client } = await sandbox({ pageBase });
    const ids: string[] = [];
    for await (const conversation of client.iterateConversations({ pageSize: 7 })) ids.push(conversation.id);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
  });

  test.each(["array", "single"] as const)("listExternalEventTriggers resolves to an array when the sandbox answers the %s shape", async (triggerList) => {
    const { client } = await sandbox({ triggerList });
    const { agentStageId } = await someConversation(client);
    const triggers = await client.listExternalEventTriggers(agentStageId);
    expect(Array.isArray(triggers)).toBe(true);
    // Every generated bot has several triggers; the single shape carries only the first.
    expect(triggerList === "array" ? triggers.length > 1 : triggers.length === 1).toBe(true);
    await expect(client.listExternalEventTriggers("no-such-bot")).rejects.toBeInstanceOf(NotFoundError);
  });

  test("fireExternalEvent by conversationId and by platform session id: recorded by the sandbox", async () => {
    const { client, control } = await sandbox();
    const { conversation, agentStageId } = await someConversation(client, "platform");
    const [trigger] = await client.listExternalEventTriggers(agentStageId);
    await client.fireExternalEvent({ conversationId: conversation.id, externalEventId: trigger!.externalEventId }, { trigger: trigger! });
    await client.fireExternalEvent({
      externalConversationId: platformConversationId(conversation.channelData!.platform.session.id),
      externalEventId: trigger!.externalEventId,
    });
    expect(await control("GET", "fired-events")).toMatchObject([{ conversationId: conversation.id }, { conversationId: conversation.id }]);
  });

  test("an unknown conversation is a NotFoundError; a bad variable value a ServerError that is not retried", async () => {
    const { client, control } = await sandbox();
    const { conversation, agentStageId } = await someConversation(client);
    const [trigger] = await client.listExternalEventTriggers(agentStageId);
    await expect(client.fireExternalEvent({ conversationId: "no-such-conversation", externalEventId: trigger!.externalEventId })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const error = await client
      .fireExternalEvent({ conversationId: conversation.id, externalEventId: trigger!.externalEventId, externalEventPayload: { deliveryDate: "next Tuesday" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, body: { errors: [{ path: "$.externalEventPayload.deliveryDate" }] } });
    expect(await control("GET", "fired-events")).toEqual([]);
  });

  test("searches are retried through injected 503s; a fire is not retried", async () => {
    const { client, control } = await sandbox();
    await control("POST", "faults", { operationId: "searchConversations", status: 503, retryAfter: 0, times: 2 });
    expect((await client.searchConversations()).items).toHaveLength(20);
    const { conversation, agentStageId } = await someConversation(client);
    const [trigger] = await client.listExternalEventTriggers(agentStageId);
    await control("POST", "faults", { operationId: "fireExternalEvent", status: 503, times: 1 });
    await expect(client.fireExternalEvent({ conversationId: conversation.id, externalEventId: trigger!.externalEventId })).rejects.toMatchObject({
      status: 503,
    });
    // One attempt used the fault; the next fire goes through, so none was retried behind the caller's back.
    await client.fireExternalEvent({ conversationId: conversation.id, externalEventId: trigger!.externalEventId });
    expect(await control("GET", "fired-events")).toHaveLength(1);
  });

  test("a delay longer than the client's time-out is a TimeoutError", async () => {
    const { client, control } = await sandbox({}, { timeoutMs: 200 });
    await control("POST", "faults", { operationId: "listExternalEventTriggers", status: 200, delayMs: 2_000, times: 3 });
    await expect(client.listExternalEventTriggers("any-bot")).rejects.toBeInstanceOf(TimeoutError);
  });

  test("answers whose Response has read-only methods on its prototype (as a server adapter may put in the global scope: Hono's node adapter does) are read and bounded", async () => {
    const { server } = await sandbox();
    // A Response whose body readers cannot be assigned on an answer (an assignment throws in strict code).
    class ReadOnlyResponse extends Response {}
    for (const name of ["json", "text", "arrayBuffer", "blob", "bytes", "formData"] as const)
      Object.defineProperty(ReadOnlyResponse.prototype, name, { value: Response.prototype[name], writable: false });
    const readOnly = async (request: Request) => {
      const answer = await server.sandbox.fetch(request);
      return new ReadOnlyResponse(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    };
    expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(await readOnly(new Request(`${server.url}/`))), "json")).toMatchObject({ writable: false });
    const inProcess = { baseUrl: server.url, token: server.token, fetch: readOnly };
    const page = await createBotConversationClient(inProcess).searchConversations({ pageSize: 5 });
    expect(page.items).toHaveLength(5);
    await expect(createBotConversationClient({ ...inProcess, maxResponseBytes: 100 }).searchConversations({ pageSize: 5 })).rejects.toBeInstanceOf(
      ResponseTooLargeError,
    );
  });

  test("a token the sandbox does not accept is an AuthenticationError", async () => {
    const { server } = await sandbox();
    const stranger = createBotConversationClient({ baseUrl: server.url, token: "not-the-token" });
    await expect(stranger.searchConversations()).rejects.toBeInstanceOf(AuthenticationError);
  });
});
