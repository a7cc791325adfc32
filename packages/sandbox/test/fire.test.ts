import { describe, expect, test } from "vitest";
import { example, responseProblems } from "./support/description.ts";
import { exampleFixture, exampleSessionId } from "./support/fixture.ts";
import { json, sandboxForTests } from "./support/sandbox.ts";

const sandbox = await sandboxForTests({ fixture: exampleFixture() });
const firePath = "/api/v1/runtime/simple/external/events";
const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";

async function fire(body: unknown, init: RequestInit = {}): Promise<{ status: number; body: string; problems: string[] }> {
  const response = await sandbox.call(firePath, { ...json("POST", body), ...init });
  const problems = await responseProblems("fireExternalEvent", response);
  return { status: response.status, body: await response.text(), problems };
}

async function firedEvents(
  query = "",
): Promise<{ conversationId: string; externalEventId: string; sent: object; externalEventPayload: unknown; receivedAt: string }[]> {
  const response = await sandbox.call(`/_sandbox/fired-events${query}`);
  expect(await responseProblems("listSandboxFiredEvents", response)).toEqual([]);
  return response.json();
}

describe("firing an external event", () => {
  test.each([
    "FireStringVariable",
    "FireNumberVariable",
    "FireBooleanVariable",
    "FireDateTimeVariable",
    "FireComplexObjectVariable",
    "FirePersonNameVariable",
    "FireFileVariable",
  ])("the description's example %s is a 200 with an empty body, and is recorded", async (name) => {
    const request = example<{ externalEventId: string; externalEventPayload: object }>(name);
    const before = (await firedEvents()).length;
    expect(await fire(request)).toEqual({ status: 200, body: "", problems: [] });
    const events = await firedEvents();
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({ externalEventId: request.externalEventId, externalEventPayload: request.externalEventPayload, conversationId });
  });

  test("by externalConversationId <SESSION_ID>|livechat, the conversation of that platform session", async () => {
    expect(await fire({ externalConversationId: `${exampleSessionId}|livechat`, externalEventId: "callback-requested" })).toMatchObject({ status: 200 });
    expect((await firedEvents("?externalEventId=callback-requested")).at(-1)).toMatchObject({
      sent: { conversationId: null, externalConversationId: `${exampleSessionId}|livechat` },
      externalEventPayload: null,
      conversationId,
    });
  });

  test.each([
    [{ conversationId: "missing", externalEventId: "order-status-changed" }, 'No conversation with conversationId "missing".'],
    [
      { externalConversationId: "missing|livechat", externalEventId: "order-status-changed" },
      'No conversation with externalConversationId "missing|livechat".',
    ],
    [
      { externalConversationId: exampleSessionId, externalEventId: "order-status-changed" },
      `No conversation with externalConversationId "${exampleSessionId}".`,
    ],
    [
      { conversationId, externalEventId: "no-such-trigger" },
      `No trigger with externalEventId "no-such-trigger" for the bot of conversation "${conversationId}".`,
    ],
  ])("%j is a 404: %s", async (request, detail) => {
    const before = (await firedEvents()).length;
    const answer = await fire(request);
    expect(answer.problems).toEqual([]);
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ detail });
    expect(await firedEvents()).toHaveLength(before);
  });

  test.each([
    ["String", "orderNumber", 10482],
    ["Number", "orderTotal", "149.90"],
    ["Boolean", "isPaid", "true"],
    ["DateTime", "deliveryDate", "next Tuesday"],
    ["ComplexObject", "deliveryAddress", "Main street 1"],
    ["PersonName", "courierName", 7],
    ["File", "invoice", { name: "invoice.pdf" }],
    // Issue 24: the one date rule (search's too), non-empty names, files with an extension and a URL.
    ["DateTime", "deliveryDate", "2026-11-24"],
    ["DateTime", "deliveryDate", "2026-11-24T10:00:00"],
    ["DateTime", "deliveryDate", "2026-11-24T10:00:00+05"],
    ["DateTime", "deliveryDate", "2026-12-31T23:59:60Z"],
    ["PersonName", "courierName", ""],
    ["File", "invoice", { name: "invoice.pdf", fileUrl: "not a url" }],
    ["File", "invoice", { name: "invoice", fileUrl: "https://files.example.com/invoice" }],
  ])("a %s variable with a wrong value is a 500 naming it", async (type, code, value) => {
    const answer = await fire({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { [code]: value } });
    expect(answer.problems).toEqual([]);
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({
      errors: [{ path: `$.externalEventPayload.${code}`, message: expect.stringContaining(`expected ${type}`) }],
    });
  });

  test("a File without fileUrl is a 500 whose message names fileUrl", async () => {
    const answer = await fire({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { invoice: { name: "invoice.pdf" } } });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body).detail).toContain("fileUrl");
  });

  test("every failing variable is named, unknown codes too, and nothing is recorded", async () => {
    const before = (await firedEvents()).length;
    const answer = await fire({
      conversationId,
      externalEventId: "order-status-changed",
      externalEventPayload: { deliveryDate: "next Tuesday", isPaid: 1, "no such": true, orderNumber: "ok" },
    });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body).errors.map((error: { path: string }) => error.path)).toEqual([
      "$.externalEventPayload.deliveryDate",
      "$.externalEventPayload.isPaid",
      '$.externalEventPayload["no such"]',
    ]);
    expect(await firedEvents()).toHaveLength(before);
  });

  test.each([
    ["malformed JSON", '{"conversationId": ', "application/json", 400, "$"],
    ["an empty body", "", "application/json", 400, "$"],
    ["a text body", "conversationId=1", "text/plain", 415, "header.content-type"],
    ["no content type", '{"conversationId":"a","externalEventId":"b"}', "", 415, "header.content-type"],
    ["an array", "[]", "application/json", 400, "$"],
    ["no identifier", '{"externalEventId":"order-status-changed"}', "application/json", 400, "$.conversationId"],
    ["an empty conversationId", '{"conversationId":"","externalEventId":"x"}', "application/json", 400, "$.conversationId"],
    [
      "a payload that is not an object",
      `{"conversationId":"${conversationId}","externalEventId":"x","externalEventPayload":[1]}`,
      "application/json",
      400,
      "$.externalEventPayload",
    ],
  ])("%s is a prompt 4xx naming where", async (_name, body, contentType, status, path) => {
    const response = await sandbox.fetch(`http://sandbox.test${firePath}`, {
      method: "POST",
      body,
      headers: { "x-token": "sandbox-token", ...(contentType ? { "content-type": contentType } : {}) },
    });
    expect(response.status).toBe(status);
    const answer = (await response.json()) as { errors: { path: string }[] };
    expect(answer.errors.map((error) => error.path)).toContain(path);
  });

  test("a body over 1 MiB is a 413, not read to the end", async () => {
    const response = await sandbox.call(firePath, json("POST", { conversationId, externalEventId: "x", padding: "x".repeat(1024 * 1024) }));
    expect(response.status).toBe(413);
  });
});
