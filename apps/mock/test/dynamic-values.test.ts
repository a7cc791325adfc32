import { describe, expect, it } from "vitest";
import { type Operation, operations } from "./support/bundle.ts";
import { call, jsonBody, token, useMock } from "./support/mock.ts";

/** Every object anywhere in a JSON value that carries JSON Schema keywords instead of data. */
function schemaLeftovers(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(schemaLeftovers);
  if (value === null || typeof value !== "object") return [];
  const keys = Object.keys(value);
  const own = keys.includes("$schema") || (keys.includes("description") && (keys.includes("examples") || keys.includes("title"))) ? [value] : [];
  return [...own, ...Object.values(value).flatMap(schemaLeftovers)];
}

/** Every `nickname` in a search page. */
function nicknames(page: unknown): unknown[] {
  return (page as { items: { members: { nickname: unknown }[] }[] }).items.flatMap((item) => item.members.map((member) => member.nickname));
}

const search = operations.find(({ operationId }) => operationId === "searchConversations") as Operation;
const triggers = operations.find(({ operationId }) => operationId === "listExternalEventTriggers") as Operation;

describe("dynamic mode (--dynamic)", () => {
  const mock = useMock({ dynamic: true });

  it("generates values for fields that allow any JSON value, never the schema's own text", async () => {
    const page = await jsonBody(await call(mock(), search, token));
    expect(nicknames(page).length).toBeGreaterThan(0);
    // `nickname` allows any JSON value; its only example is null.
    expect(nicknames(page).every((nickname) => nickname === null)).toBe(true);
    expect(schemaLeftovers(page)).toEqual([]);
  });

  it.each([404, 500])("generates a %i body that is a value, not the ErrorDetails schema", async (status) => {
    const response = await call(mock(), triggers, { ...token, Prefer: `code=${status}` });
    expect(response.status).toBe(status);
    const body = await jsonBody(response);
    expect(schemaLeftovers(body)).toEqual([]);
    expect(JSON.stringify(body)).not.toMatch(/ErrorDetails|json-schema\.org/);
  });
});

describe("Prefer: dynamic=true on the static mock", () => {
  const mock = useMock();

  it.each([search, triggers])("gives $operationId the same generated body every time (the fixed seed)", async (operation) => {
    const headers = { ...token, Prefer: "dynamic=true" };
    const first = await jsonBody(await call(mock(), operation, headers));
    const second = await jsonBody(await call(mock(), operation, headers));
    expect(second).toEqual(first);
    expect(schemaLeftovers(first)).toEqual([]);
  });
});
