import type { ConversationExport, ConversationPage } from "@bot-conversation/types";
import { describe, expect, test } from "vitest";
import { control, example, responseProblems } from "./support/description.ts";
import { exampleFixture } from "./support/fixture.ts";
import { json, sandboxForTests } from "./support/sandbox.ts";

const sandbox = await sandboxForTests({ conversations: 40 });
const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";
const ids = async (query = "pageSize=1000") => ((await (await sandbox.call(`${searchPath}?${query}`)).json()) as ConversationPage).items.map((item) => item.id);

async function checked(operationId: string, response: Response): Promise<Response> {
  expect(await responseProblems(operationId, response)).toEqual([]);
  return response;
}

describe("POST /_sandbox/reset", () => {
  test("regenerates from a seed: the same seed gives the same data, another seed other data", async () => {
    const first = await checked("resetSandbox", await sandbox.call("/_sandbox/reset", json("POST", { seed: "a", conversations: 25 })));
    expect(await first.json()).toEqual({ bots: 3, conversations: 25 });
    const a = await ids();
    await sandbox.call("/_sandbox/reset", json("POST", { seed: "b", conversations: 25 }));
    const b = await ids();
    await sandbox.call("/_sandbox/reset", json("POST", { seed: "a", conversations: 25 }));
    expect(await ids()).toEqual(a);
    expect(b).toHaveLength(25);
    expect(b).not.toEqual(a);
  });

  test("without a body, the seed and count the sandbox started with", async () => {
    const response = await checked("resetSandbox", await sandbox.call("/_sandbox/reset", { method: "POST" }));
    expect(await response.json()).toEqual({ bots: 3, conversations: 40 });
  });

  test("clears the fired events", async () => {
    const [conversationId] = await ids();
    const [trigger] = ((await (await sandbox.call(`/_sandbox/conversations/${conversationId}/export`)).json()) as ConversationExport).members.filter(
      (member) => member.role === "Bot",
    );
    const triggers = (await (await sandbox.call(`/api/v1/runtime/simple/external/events/${trigger!.id}`)).json()) as { externalEventId: string }[];
    expect((await sandbox.call(firePath, json("POST", { conversationId, externalEventId: triggers[0]!.externalEventId }))).status).toBe(200);
    expect(await (await sandbox.call("/_sandbox/fired-events")).json()).toHaveLength(1);
    await sandbox.call("/_sandbox/reset", { method: "POST" });
    expect(await (await sandbox.call("/_sandbox/fired-events")).json()).toEqual([]);
  });

  test.each([
    [{ conversations: -1 }, "$.conversations"],
    [{ conversations: "ten" }, "$.conversations"],
    [{ seed: 5 }, "$.seed"],
    [{ speed: 5 }, "$.speed"],
  ])("%j is a 400 naming %s, and nothing changes", async (body, path) => {
    const before = await ids();
    const response = await checked("resetSandbox", await sandbox.call("/_sandbox/reset", json("POST", body)));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual([path]);
    expect(await ids()).toEqual(before);
  });
});

describe("PUT /_sandbox/fixture", () => {
  test("replaces all data; the search summary is derived from the export", async () => {
    const response = await checked("loadSandboxFixture", await sandbox.call("/_sandbox/fixture", json("PUT", exampleFixture())));
    expect(await response.json()).toEqual({ bots: 2, conversations: 2 });
    const page = (await (await sandbox.call(`${searchPath}?status=Active`)).json()) as ConversationPage;
    // The description's example reports 12 messages for a conversation whose example export holds 2;
    // the sandbox counts the export's messages.
    expect(page.items).toEqual([{ ...example<ConversationPage>("ConversationPageFirst").items[0], messagesCount: 2 }]);
  });

  test("a bad fixture is a 400 listing the JSON path and problem of every defect, and nothing changes", async () => {
    await sandbox.call("/_sandbox/fixture", json("PUT", exampleFixture()));
    const bad = exampleFixture() as unknown as {
      bots: { agentStageId: unknown }[];
      conversations: { agentStageId: string; startedOn: string; conversation: Record<string, unknown> & { history: Record<string, unknown>[] } }[];
    };
    bad.bots[0]!.agentStageId = 5;
    bad.conversations[0]!.startedOn = "yesterday";
    bad.conversations[0]!.conversation["mood"] = "happy";
    bad.conversations[0]!.conversation.history[0]!["eventName"] = "fired";
    bad.conversations[1]!.conversation.history[0]!["text"] = null;
    bad.conversations[1]!.agentStageId = "nobody";
    const response = await checked("loadSandboxFixture", await sandbox.call("/_sandbox/fixture", json("PUT", bad)));
    expect(response.status).toBe(400);
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(((await response.json()) as { errors: { path: string }[] }).errors.sort(byPath)).toEqual(
      [
        { path: "$.bots[0].agentStageId", message: "expected a non-empty string; got 5" },
        {
          path: "$.conversations[0].startedOn",
          message: 'expected an ISO 8601 date-time such as 2026-11-20T09:15:02+03:00; got "yesterday"',
        },
        {
          path: "$.conversations[0].conversation.mood",
          message: "expected only the properties id, channelId, status, closingStatus, closingReason, channelData, members, history here; got this one",
        },
        {
          path: "$.conversations[0].conversation.history[0].eventName",
          message: expect.stringMatching(/^expected one of successfull-service, .*; got "fired"$/),
        },
        { path: "$.conversations[1].conversation.history[0].text", message: "expected a string; got null" },
        { path: "$.conversations[1].agentStageId", message: 'no bot "nobody" in $.bots' },
        // The bot's identifier is not a string, so no bot has the identifier its conversation names.
        { path: "$.conversations[0].agentStageId", message: 'no bot "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c" in $.bots' },
      ].sort(byPath),
    );
    expect(await ids()).toEqual(["0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", "second-conversation"]);
  });

  test("what a schema cannot see is a defect too: duplicates and unknown bots", async () => {
    const bad = exampleFixture();
    const duplicated = {
      ...bad,
      bots: [...bad.bots, bad.bots[1]!],
      conversations: [...bad.conversations, { ...bad.conversations[0]!, agentStageId: "nobody" }],
    };
    const response = await sandbox.call("/_sandbox/fixture", json("PUT", duplicated));
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      { path: "$.bots[2].agentStageId", message: 'duplicate agentStageId "bot-without-triggers", first at $.bots[1].agentStageId' },
      { path: "$.conversations[2].agentStageId", message: 'no bot "nobody" in $.bots' },
      {
        path: "$.conversations[2].conversation.id",
        message: 'duplicate conversation id "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", first at $.conversations[0].conversation.id',
      },
      { path: "$.conversations[2].conversation.channelData.platform.session.id", message: expect.stringContaining("duplicate platform session id") },
    ]);
  });
});

describe("GET /_sandbox/conversations/{conversationId}/export", () => {
  test("the conversation as the export model, valid against the description's strict schema", async () => {
    await sandbox.call("/_sandbox/fixture", json("PUT", exampleFixture()));
    const response = await checked("exportSandboxConversation", await sandbox.call("/_sandbox/conversations/0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c/export"));
    expect(await response.json()).toEqual(example("ConversationExportFull"));
  });

  test("an unknown conversation is a 404 naming it", async () => {
    const response = await checked("exportSandboxConversation", await sandbox.call("/_sandbox/conversations/nope/export"));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ detail: 'No conversation with conversationId "nope".' });
  });
});

describe("GET /_sandbox/fired-events", () => {
  test("in order, filtered by conversation and by external event", async () => {
    await sandbox.call("/_sandbox/fixture", json("PUT", exampleFixture()));
    const fire = (conversationId: string, externalEventId: string) => sandbox.call(firePath, json("POST", { conversationId, externalEventId }));
    await fire("0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", "callback-requested");
    await fire("second-conversation", "order-status-changed");
    await fire("second-conversation", "callback-requested");
    const list = async (query: string) =>
      (await (await checked("listSandboxFiredEvents", await sandbox.call(`/_sandbox/fired-events${query}`))).json()) as {
        conversationId: string;
        externalEventId: string;
        receivedAt: string;
      }[];
    const all = await list("");
    expect(all.map((event) => `${event.conversationId} ${event.externalEventId}`)).toEqual([
      "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c callback-requested",
      "second-conversation order-status-changed",
      "second-conversation callback-requested",
    ]);
    expect(all.map((event) => event.receivedAt)).toEqual([...all.map((event) => event.receivedAt)].sort());
    expect(await list("?conversationId=second-conversation")).toEqual(all.slice(1));
    expect(await list("?externalEventId=callback-requested")).toEqual([all[0], all[2]]);
    expect(await list("?conversationId=second-conversation&externalEventId=callback-requested")).toEqual([all[2]]);
    expect((await sandbox.call("/_sandbox/fired-events?conversation=x")).status).toBe(400);
  });
});

describe("POST and DELETE /_sandbox/faults", () => {
  test("the next matching requests answer the status with Retry-After; others are untouched", async () => {
    const armed = await checked(
      "addSandboxFault",
      await sandbox.call("/_sandbox/faults", json("POST", { operationId: "searchConversations", status: 429, retryAfter: 2, times: 2 })),
    );
    expect(armed.status).toBe(201);
    expect(await armed.json()).toEqual({ operationId: "searchConversations", status: 429, retryAfter: 2, delayMs: 0, times: 2 });
    expect((await sandbox.call("/api/v1/runtime/simple/external/events/x")).status).toBe(404);
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await sandbox.call(searchPath);
      expect(await responseProblems("searchConversations", response)).toEqual([]);
      expect([response.status, response.headers.get("retry-after")]).toEqual([429, "2"]);
    }
    expect((await sandbox.call(searchPath)).status).toBe(200);
  });

  test("a delay holds the answer; a status below 300 then serves the request as usual", async () => {
    await sandbox.call("/_sandbox/faults", json("POST", { status: 200, delayMs: 300 }));
    const started = performance.now();
    const response = await sandbox.call(searchPath);
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  test("without operationId, any operation; DELETE disarms every fault", async () => {
    await sandbox.call("/_sandbox/faults", json("POST", { status: 503, times: 5 }));
    expect((await sandbox.call("/api/v1/runtime/simple/external/events/x")).status).toBe(503);
    expect((await sandbox.call(firePath, json("POST", { conversationId: "c", externalEventId: "e" }))).status).toBe(503);
    expect((await checked("clearSandboxFaults", await sandbox.call("/_sandbox/faults", { method: "DELETE" }))).status).toBe(204);
    expect((await sandbox.call(searchPath)).status).toBe(200);
  });

  test.each([
    [{}, "$.status", "$.timeout"],
    [{ status: 99 }, "$.status"],
    [{ status: 500, operationId: "deleteEverything" }, "$.operationId"],
    [{ status: 500, delayMs: -1 }, "$.delayMs"],
  ])("%j is a 400 naming %s", async (body, ...paths) => {
    const response = await checked("addSandboxFault", await sandbox.call("/_sandbox/faults", json("POST", body)));
    expect(((await response.json()) as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual(paths);
  });
});

describe("authentication", () => {
  const routes: [string, string, string, RequestInit?][] = [
    ["searchConversations", "GET", searchPath],
    ["listExternalEventTriggers", "GET", "/api/v1/runtime/simple/external/events/x"],
    ["fireExternalEvent", "POST", firePath, json("POST", { conversationId: "c", externalEventId: "e" })],
    ["resetSandbox", "POST", "/_sandbox/reset"],
    ["loadSandboxFixture", "PUT", "/_sandbox/fixture", json("PUT", exampleFixture())],
    ["exportSandboxConversation", "GET", "/_sandbox/conversations/c/export"],
    ["listSandboxFiredEvents", "GET", "/_sandbox/fired-events"],
    ["addSandboxFault", "POST", "/_sandbox/faults", json("POST", { status: 500 })],
    ["clearSandboxFaults", "DELETE", "/_sandbox/faults"],
  ];
  test.each(routes)("%s without a token or with a wrong one is a 401 that does not echo it", async (operationId, method, path, init) => {
    for (const headers of [{}, { "x-token": "wrong-secret-token" }]) {
      const response = await sandbox.fetch(`http://sandbox.test${path}`, { method, ...init, headers: { "content-type": "application/json", ...headers } });
      expect(await responseProblems(operationId, response)).toEqual([]);
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain("wrong-secret-token");
    }
  });

  test("a CORS preflight is answered without a token, allowing X-Token", async () => {
    const response = await sandbox.fetch(`http://sandbox.test${firePath}`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "x-token, content-type" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-allow-headers")).toMatch(/X-Token/i);
  });

  test("an ordinary request from a browser origin gets Access-Control-Allow-Origin; one without an Origin does not need it", async () => {
    const fromBrowser = await sandbox.call(searchPath, { headers: { origin: "http://localhost:5173" } });
    expect([fromBrowser.status, fromBrowser.headers.get("access-control-allow-origin")]).toEqual([200, "http://localhost:5173"]);
    const fromServer = await sandbox.call(searchPath);
    expect([fromServer.status, fromServer.headers.get("access-control-allow-origin")]).toEqual([200, null]);
  });

  test("an unknown route is a 404 and a known path with another method a 405", async () => {
    expect((await sandbox.call("/api/v3/anything")).status).toBe(404);
    const wrongMethod = await sandbox.call(searchPath, { method: "DELETE" });
    expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    // HEAD works where GET does, as Allow says.
    expect((await sandbox.call(searchPath, { method: "HEAD" })).status).toBe(200);
  });

  // Every control path of the description that a workspace's token may call, asked with a method it does not
  // describe: `Allow` names the methods the description gives it (HEAD wherever GET is), so a new route or
  // method edits no test. (The administrator's routes answer 401 to this token first.)
  const verbs = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
  type Operation = { security?: Record<string, unknown>[] };
  const administratorsOnly = (item: Record<string, Operation>) =>
    Object.values(item).every((operation) => operation.security?.every((requirement) => "AdminToken" in requirement));
  const controlRoutes = Object.entries(control.paths as Record<string, Record<string, Operation>>)
    .filter(([, item]) => !administratorsOnly(item))
    .map(([template, item]) => {
      const described = verbs.filter((verb) => verb.toLowerCase() in item);
      const allowed = described.includes("GET") && !described.includes("HEAD") ? [...described, "HEAD"] : described;
      const path = template.replace(/\{[^}]+\}/g, "c-1");
      return [verbs.find((verb) => !allowed.includes(verb))!, path, [...allowed].sort()] as const;
    });
  test.each(controlRoutes)("a control route asked with %s answers 405 with Allow, naming the path as sent (%s)", async (method, path, allow) => {
    const response = await sandbox.call(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")?.split(", ").sort()).toEqual(allow);
    expect(((await response.json()) as { detail: string }).detail).toContain(path);
  });

  test("the triggers route's 405 names the path as sent, not its pattern", async () => {
    const response = await sandbox.call("/api/v1/runtime/simple/external/events/bot-1", { method: "PUT" });
    expect(response.status).toBe(405);
    const { detail } = (await response.json()) as { detail: string };
    expect(detail).toContain("/api/v1/runtime/simple/external/events/bot-1");
    expect(detail).not.toContain(":agentStageId");
  });

  test("a browser's preflight is allowed every header it asks for (as by the mock), and only the methods the path answers", async () => {
    const preflight = await sandbox.fetch(`http://sandbox.test${searchPath}`, {
      method: "OPTIONS",
      headers: { origin: "http://app.test", "access-control-request-method": "GET", "access-control-request-headers": "x-token, prefer, accept" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://app.test");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("x-token,prefer,accept");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,HEAD");
    const fire = await sandbox.fetch("http://sandbox.test/api/v1/runtime/simple/external/events", {
      method: "OPTIONS",
      headers: { origin: "http://app.test", "access-control-request-method": "POST" },
    });
    expect(fire.headers.get("access-control-allow-methods")).toBe("POST");
    // A response to the browser exposes the headers the client reads.
    const answered = await sandbox.call(searchPath, { headers: { origin: "http://app.test" } });
    expect(answered.headers.get("access-control-expose-headers")?.toLowerCase().split(",")).toEqual(expect.arrayContaining(["retry-after", "x-request-id"]));
  });

  test("GET /_sandbox/bots lists every bot with its triggers and number of conversations", async () => {
    await sandbox.call("/_sandbox/reset", json("POST", {}));
    const bots = (await (await sandbox.call("/_sandbox/bots")).json()) as { agentStageId: string; externalEventIds: string[]; conversations: number }[];
    expect(bots.length).toBe(3);
    expect(bots.reduce((sum, bot) => sum + bot.conversations, 0)).toBe(
      ((await sandbox.call("/api/v2/channels/conversations").then((response) => response.json())) as { totalItemCount: number }).totalItemCount,
    );
    for (const bot of bots) {
      const triggers = (await (await sandbox.call(`/api/v1/runtime/simple/external/events/${bot.agentStageId}`)).json()) as { externalEventId: string }[];
      expect(bot.externalEventIds).toEqual(triggers.map((trigger) => trigger.externalEventId));
    }
  });
});
