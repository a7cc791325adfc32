import { afterEach, describe, expect, test } from "vitest";
import { ApiError, createBotConversationClient } from "../src/index.js";
import { sendJson, startServer, type TestServer } from "./support/server.js";

const page = { items: [], hasMore: false, pageIndex: 0, pageSize: 20, totalItemCount: 0, totalPageCount: 0, fromItemInclusive: 0, toItemExclusive: 0 };
const fire = { conversationId: "c-1", externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "10482" } };

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The configured origin, redirecting every request to `location(other)`, and another origin (another port) that would answer anything. */
async function redirecting(status: number, location: (other: string) => string) {
  const other = await startServer((_request, response) => (_request.method === "POST" ? response.writeHead(200).end() : sendJson(response, 200, page)));
  const origin = await startServer((_request, response) => response.writeHead(status, { location: location(other.url) }).end());
  servers.push(other, origin);
  const client = createBotConversationClient({ baseUrl: origin.url, token: "tok-SECRET-123" });
  return { client, origin, other };
}

describe("redirects are never followed: the token and the body stay with the configured origin", () => {
  const calls = [
    ["search (GET)", (client: ReturnType<typeof createBotConversationClient>) => client.searchConversations({ agentStageId: "bot" })],
    ["list triggers (GET)", (client: ReturnType<typeof createBotConversationClient>) => client.listExternalEventTriggers("bot")],
    ["fire (POST)", (client: ReturnType<typeof createBotConversationClient>) => client.fireExternalEvent(fire)],
  ] as const;
  const cases = [301, 302, 303, 307, 308].flatMap((status) => calls.map(([name, call]) => [status, name, call] as const));

  test.each(cases)("%i on %s is an ApiError naming the status as a redirect not followed; the other origin gets nothing", async (status, _name, call) => {
    const { client, origin, other } = await redirecting(status, (url) => `${url}/api/elsewhere`);
    const error = await call(client).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status });
    expect((error as Error).message).toMatch(new RegExp(`answered ${status}: a redirect, not followed$`));
    expect(origin.requests).toHaveLength(1);
    expect(other.requests).toEqual([]);
  });

  test("a fire answered with a redirect never resolves, even where following would turn it into a GET that succeeds", async () => {
    const { client, other } = await redirecting(301, (url) => url);
    await expect(client.fireExternalEvent(fire)).rejects.toMatchObject({ name: "ApiError", status: 301 });
    expect(other.requests).toEqual([]);
  });

  test("the message names no address (no user, password, path or query); the Location stays on the error's headers, the token redacted everywhere", async () => {
    const { client } = await redirecting(302, (url) => `${url.replace("//", "//admin:hunter2@")}/steal?x-token=tok-SECRET-123`);
    const error = (await client.searchConversations().catch((caught: unknown) => caught)) as ApiError;
    expect(error.message).toMatch(/: a redirect, not followed$/);
    expect(error.message).not.toMatch(/hunter2|admin|steal/);
    expect(JSON.stringify(error)).not.toContain("tok-SECRET-123");
    expect(error.headers["location"]).toContain("x-token=[redacted]");
  });

  test("a redirect without a Location is still an error, named as a redirect", async () => {
    const origin = await startServer((_request, response) => response.writeHead(307).end());
    servers.push(origin);
    const client = createBotConversationClient({ baseUrl: origin.url, token: "tok-SECRET-123" });
    await expect(client.fireExternalEvent(fire)).rejects.toThrow(/answered 307: a redirect, not followed$/);
  });

  test("client.raw does not follow redirects either", async () => {
    const { client, other } = await redirecting(302, (url) => url);
    const { response } = await client.raw.GET("/api/v2/channels/conversations", {});
    expect(response.status).toBe(302);
    expect(other.requests).toEqual([]);
  });
});

describe("a fire resolves only on the documented 200 of the fire request itself", () => {
  test.each([201, 202, 204])("a %i is an UnexpectedResponseError, not a success", async (status) => {
    const server = await startServer((_request, response) => response.writeHead(status).end());
    servers.push(server);
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    const error = await client.fireExternalEvent(fire).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "UnexpectedResponseError", status });
    expect((error as Error).message).toContain(`answered ${status} but expected 200; got ${status}`);
  });

  test("a 200 resolves", async () => {
    const server = await startServer((_request, response) => response.writeHead(200).end());
    servers.push(server);
    const client = createBotConversationClient({ baseUrl: server.url, token: "t" });
    await expect(client.fireExternalEvent(fire)).resolves.toBeUndefined();
  });
});
