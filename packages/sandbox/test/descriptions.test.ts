import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { withoutProse } from "../scripts/descriptions.ts";
import { serviceDescription } from "../src/description.ts";

const published = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve("@bot-conversation/openapi/openapi.json"), "utf8"),
) as typeof serviceDescription;

describe("the descriptions the sandbox checks against, without their prose", () => {
  it("drop every description, summary and externalDocs, and keep names and data that are spelled the same", () => {
    const document = {
      info: { title: "T", description: "prose", version: "1" },
      externalDocs: { url: "https://example.com" },
      paths: {
        "/description": {
          get: {
            summary: "prose",
            operationId: "x",
            parameters: [{ name: "description", in: "query", description: "prose", example: { description: "data" } }],
          },
        },
      },
      components: {
        schemas: {
          description: {
            type: "object",
            description: "prose",
            properties: { description: { type: "string", description: "prose", default: "data", enum: ["data"] }, summary: { const: "data" } },
            examples: [{ description: "data" }],
          },
        },
        examples: { summary: { summary: "prose", description: "prose", value: { summary: "data", description: "data" } } },
      },
    };
    expect(withoutProse(document)).toEqual({
      info: { title: "T", version: "1" },
      paths: { "/description": { get: { operationId: "x", parameters: [{ name: "description", in: "query", example: { description: "data" } }] } } },
      components: {
        schemas: {
          description: {
            type: "object",
            properties: { description: { type: "string", default: "data", enum: ["data"] }, summary: { const: "data" } },
            examples: [{ description: "data" }],
          },
        },
        examples: { summary: { value: { summary: "data", description: "data" } } },
      },
    });
  });

  it("the service's, as the sandbox reads it, is the published description but for its prose", () => {
    expect(serviceDescription).toEqual(withoutProse(published));
    expect(JSON.stringify(serviceDescription)).not.toMatch(/"description":"/);
    expect(JSON.stringify(serviceDescription).length).toBeLessThan(JSON.stringify(published).length * 0.7);
  });
});
