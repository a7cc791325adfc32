import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { apiKeyHeaders, secretHeaders } from "../src/index.ts";

const bundle = JSON.parse(readFileSync(new URL("../dist/openapi.json", import.meta.url), "utf8")) as object;

describe("the headers that carry a secret", () => {
  test("the description's API-key header (X-Token) is read from its security schemes, not written here", () => {
    expect(apiKeyHeaders(bundle)).toEqual(["x-token"]);
    const renamed = {
      components: { securitySchemes: { Key: { type: "apiKey", in: "header", name: "X-Api-Key" }, Query: { type: "apiKey", in: "query", name: "key" } } },
    };
    expect(apiKeyHeaders(renamed)).toEqual(["x-api-key"]);
  });

  test("with HTTP's own credentials, in lower case", () => {
    expect([...secretHeaders(bundle)].sort()).toEqual(["authorization", "cookie", "proxy-authorization", "set-cookie", "set-cookie2", "x-token"]);
  });
});
