import { validateEventPayload } from "@bot-conversation/client";
import type { ExternalEventTrigger } from "@bot-conversation/types";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { queryOf } from "../src/operations/request.ts";
import { arbitrariesOf } from "./support/arbitraries.ts";
import { responseProblems, service } from "./support/description.ts";
import { exampleFixture, exampleSessionId } from "./support/fixture.ts";
import { sandboxForTests } from "./support/sandbox.ts";

const fixture = exampleFixture();
const sandbox = await sandboxForTests({ fixture });
const arbitraries = arbitrariesOf(service);
const runs = { numRuns: 150, seed: 20261123 };

type Operation = {
  operationId: string;
  parameters?: { $ref?: string; name?: string; in?: string; schema?: object }[];
  requestBody?: { content: Record<string, { schema: object }> };
};
const operation = (path: string, method: string) => (service.paths[path] as Record<string, Operation>)[method]!;
const parameterOf = (reference: { $ref?: string }) =>
  (reference.$ref
    ? (service as unknown as { components: { parameters: Record<string, { name: string; in: string; schema: object }> } }).components.parameters[
        reference.$ref.split("/").pop()!
      ]
    : reference) as { name: string; in: string; schema: object };

/** Every response must be one the description allows, and nothing but the documented payload 500 may be a 5xx. */
async function conforming(operationId: string, response: Response): Promise<void> {
  expect(await responseProblems(operationId, response)).toEqual([]);
  if (response.status >= 500) expect([operationId, response.status]).toEqual(["fireExternalEvent", 500]);
}

describe("requests generated from the description", () => {
  const search = operation("/api/v2/channels/conversations", "get");
  const parameters = (search.parameters ?? []).map(parameterOf);
  const asText = (value: unknown) => String(value);

  test("searchConversations: a query valid by every parameter's schema is a 200; one value ruled out is a 400 naming it", async () => {
    const validQuery = fc.record(Object.fromEntries(parameters.map((parameter) => [parameter.name, arbitraries.valid(parameter.schema).map(asText)])), {
      requiredKeys: [],
    });
    // Parameters a query-string value can break: integers, formats, enumerations (an open string such as channelId cannot be broken).
    const schemas = (service as unknown as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas;
    const resolved = (schema: object) => ("$ref" in schema ? schemas[String(schema.$ref).split("/").pop()!]! : (schema as Record<string, unknown>));
    const breakable = parameters.filter((parameter) => {
      const schema = resolved(parameter.schema);
      return schema["type"] === "integer" || "format" in schema || "enum" in schema;
    });
    const invalidQuery = fc.tuple(validQuery, fc.constantFrom(...breakable)).chain(([query, parameter]) =>
      fc
        .string({ maxLength: 12 })
        .filter((text) => {
          const numeric = /^-?\d+$/.test(text) ? Number(text) : text;
          return !arbitraries.isValid(parameter.schema, (parameter.schema as { type?: string }).type === "integer" ? numeric : text);
        })
        .map((text) => ({ query: { ...query, [parameter.name]: text }, broken: parameter.name })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          validQuery.map((query) => ({ query, broken: undefined })),
          invalidQuery,
        ),
        async ({ query, broken }) => {
          const response = await sandbox.call(`/api/v2/channels/conversations?${new URLSearchParams(query as Record<string, string>)}`);
          await conforming("searchConversations", response);
          if (broken === undefined) expect(response.status).toBe(200);
          else {
            expect(response.status).toBe(400);
            expect(((await response.json()) as { errors: { path: string }[] }).errors.map((error) => error.path)).toContain(`query.${broken}`);
          }
        },
      ),
      runs,
    );
  });

  test("listExternalEventTriggers: any bot identifier is a 200 for a known bot and a 404 otherwise", async () => {
    const known = fixture.bots.map((bot) => bot.agentStageId);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...known), fc.string({ minLength: 1, maxLength: 20 })), async (agentStageId) => {
        const response = await sandbox.call(`/api/v1/runtime/simple/external/events/${encodeURIComponent(agentStageId)}`);
        await conforming("listExternalEventTriggers", response);
        expect(response.status).toBe(known.includes(agentStageId) ? 200 : 404);
      }),
      runs,
    );
  });

  test("fireExternalEvent: the status follows the rules, for valid and invalid bodies alike", async () => {
    const schema = operation("/api/v1/runtime/simple/external/events", "post").requestBody!.content["application/json"]!.schema;
    const conversations = new Map(fixture.conversations.map((entry) => [entry.conversation.id, entry.agentStageId]));
    const sessions = new Map([[`${exampleSessionId}|livechat`, fixture.conversations[0]!.conversation.id]]);
    const triggers = fixture.bots.flatMap((bot) => bot.triggers.map((trigger) => ({ agentStageId: bot.agentStageId, trigger })));
    const codes = [...new Set(triggers.flatMap(({ trigger }) => Object.keys(trigger.parameters)))];
    // Valid bodies are pointed at real conversations, triggers and variable codes often enough to reach every rule.
    const aimed = fc
      .tuple(
        arbitraries.valid(schema),
        fc.option(fc.constantFrom(...conversations.keys())),
        fc.option(fc.constantFrom(...sessions.keys())),
        fc.option(fc.constantFrom(...triggers.map(({ trigger }) => trigger.externalEventId))),
        fc.constantFrom(...codes),
      )
      .map(([body, conversationId, externalConversationId, externalEventId, code]) => {
        const request = { ...(body as Record<string, unknown>) };
        if (conversationId !== null && "conversationId" in request) request["conversationId"] = conversationId;
        if (externalConversationId !== null && "externalConversationId" in request) request["externalConversationId"] = externalConversationId;
        if (externalEventId !== null) request["externalEventId"] = externalEventId;
        const payload = request["externalEventPayload"] as Record<string, unknown> | undefined;
        if (payload && Object.keys(payload).length > 0) request["externalEventPayload"] = { ...payload, [code]: Object.values(payload)[0] };
        return request;
      });
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.oneof(aimed, arbitraries.invalid(schema)), async (body) => {
        const response = await sandbox.call("/api/v1/runtime/simple/external/events", { method: "POST", body: JSON.stringify(body) });
        await conforming("fireExternalEvent", response);
        expect(response.status).toBe(expectedFireStatus(body));
        seen.add(response.status);
      }),
      runs,
    );
    // The generated requests reached every rule.
    expect([...seen].sort()).toEqual([200, 400, 404, 500]);

    function expectedFireStatus(body: unknown): number {
      // The variable values are judged by the payload check (the 500), not by the request's shape.
      const payload = (body as { externalEventPayload?: unknown } | null)?.externalEventPayload;
      const shape =
        typeof payload === "object" && payload !== null && !Array.isArray(payload)
          ? { ...(body as object), externalEventPayload: Object.fromEntries(Object.keys(payload).map((code) => [code, ""])) }
          : body;
      if (!arbitraries.isValid(schema, shape)) return 400;
      const request = body as {
        conversationId?: string;
        externalConversationId?: string;
        externalEventId: string;
        externalEventPayload?: Record<string, unknown>;
      };
      const conversationId = request.conversationId !== undefined ? request.conversationId : sessions.get(request.externalConversationId!);
      const agentStageId = conversationId === undefined ? undefined : conversations.get(conversationId);
      const trigger = triggers.find(
        (candidate) => candidate.agentStageId === agentStageId && candidate.trigger.externalEventId === request.externalEventId,
      )?.trigger;
      if (!trigger) return 404;
      return validateEventPayload(trigger as ExternalEventTrigger, request.externalEventPayload).length > 0 ? 500 : 200;
    }
  });

  test("fireExternalEvent: any text as the body is a prompt 4xx, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.json().map((text) => text.slice(0, -1)),
        ),
        async (text) => {
          const response = await sandbox.call("/api/v1/runtime/simple/external/events", { method: "POST", body: text });
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          fc.pre(
            parsed === undefined ||
              !arbitraries.isValid(operation("/api/v1/runtime/simple/external/events", "post").requestBody!.content["application/json"]!.schema, parsed),
          );
          await conforming("fireExternalEvent", response);
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        },
      ),
      runs,
    );
  });
});

describe("queryOf, the search's query reader", () => {
  test("reads any URL's query as `new URL(url).searchParams` does, fragments and odd characters included", () => {
    const part = fc.string({ unit: fc.constantFrom("a", "Z", "=", "&", "?", "#", "%", "%2", "%41", "+", " ", "é", "😀", "/", ";"), maxLength: 24 });
    fc.assert(
      fc.property(part, part, part, (path, query, fragment) => {
        const url = new URL(`http://sandbox.test/${path}?${query}#${fragment}`).href;
        expect([...queryOf(url)]).toEqual([...new URL(url).searchParams]);
        const withoutQuery = new URL(`http://sandbox.test/${path.replaceAll("?", "")}#${fragment}`).href;
        expect([...queryOf(withoutQuery)]).toEqual([...new URL(withoutQuery).searchParams]);
      }),
      { numRuns: 500 },
    );
  });
});
