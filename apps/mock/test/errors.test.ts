import { describe, expect, it } from "vitest";
import { exampleValue, type Operation, operations, schemaErrors } from "./support/bundle.ts";
import { call, jsonBody, token, useMock } from "./support/mock.ts";

const mock = useMock();

/** The operations that list 404 and 500 themselves (searching only declares 4XX and 5XX ranges). */
const withListedErrors = operations.filter((operation) => operation.responses["404"] && operation.responses["500"]);
const cases = withListedErrors.flatMap((operation) => [404, 500].map((status) => ({ operationId: operation.operationId, operation, status })));

describe("forced error statuses", () => {
  it("covers the operations that list their errors", () => {
    expect(withListedErrors.map(({ operationId }) => operationId).sort()).toEqual(["fireExternalEvent", "listExternalEventTriggers"]);
  });

  it.each(cases)("$operationId answers Prefer: code=$status with that response's own named example", async ({ operation, status }) => {
    const response = await call(mock(), operation, { ...token, Prefer: `code=${status}` });
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = await jsonBody(response);
    const documented = operation.responses[String(status)]!;
    expect(body).toEqual(exampleValue(Object.values(documented.examples ?? {})[0]!));
    expect(schemaErrors(documented, body)).toBeUndefined();
  });

  it.each([404, 500])("searchConversations answers Prefer: code=%i from its error range", async (status) => {
    const search = operations.find(({ operationId }) => operationId === "searchConversations") as Operation;
    const response = await call(mock(), search, { ...token, Prefer: `code=${status}` });
    expect(response.status).toBe(status);
    const body = await jsonBody(response);
    expect(schemaErrors(search.responses[`${String(status)[0]}XX`]!, body)).toBeUndefined();
  });
});

describe("what a stateless mock does differently from the service", () => {
  it("answers 422 to a request body that breaks the schema", async () => {
    const fire = operations.find(({ operationId }) => operationId === "fireExternalEvent") as Operation;
    const response = await call(mock(), { ...fire, requestBody: { externalEventId: "order-status-changed" } }, token);
    expect(response.status).toBe(422);
  });

  it("does not filter: a filter that matches nothing still returns the first page example", async () => {
    const response = await fetch(`${mock().url}/api/v2/channels/conversations?status=Closed&channelId=no-such-channel`, { headers: token });
    const page = (await jsonBody(response)) as { items: unknown[] };
    expect(page.items.length).toBeGreaterThan(0);
  });
});
