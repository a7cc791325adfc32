import { describe, expect, it } from "vitest";
import { operations, schemaErrors } from "./support/bundle.ts";
import { call, jsonBody, token, useMock } from "./support/mock.ts";

const mock = useMock();

describe("default responses from the named examples", () => {
  it.each(operations)("$operationId answers 200 with a body valid against its schema", async (operation) => {
    const response = await call(mock(), operation, token);
    expect(response.status).toBe(200);
    const body = await jsonBody(response);
    const media = operation.responses["200"];
    if (media === undefined) {
      // fireExternalEvent: the service answers 200 with an empty body.
      expect(body).toBeUndefined();
      return;
    }
    expect(schemaErrors(media, body)).toBeUndefined();
  });
});

describe("authentication", () => {
  it.each(operations)("$operationId without X-Token answers 401", async (operation) => {
    const response = await call(mock(), operation);
    expect(response.status).toBe(401);
  });
});

describe("CORS for browser frontends", () => {
  it("answers a preflight from any origin, allowing X-Token", async () => {
    const response = await fetch(`${mock().url}/api/v1/runtime/simple/external/events`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-token, content-type",
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get("access-control-allow-origin")).toMatch(/^(\*|http:\/\/localhost:5173)$/);
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toMatch(/\*|x-token/);
  });

  it("puts Access-Control-Allow-Origin on ordinary responses", async () => {
    const response = await fetch(`${mock().url}/api/v2/channels/conversations`, { headers: { ...token, origin: "http://localhost:5173" } });
    expect(response.headers.get("access-control-allow-origin")).not.toBeNull();
  });
});
