import { describe, expect, test } from "vitest";
import { expectedButGot, expectedOfSchema, wrongValueText } from "../src/text.js";

describe("what a schema expects, in the one wording of the CLI, the MCP server and the sandbox's 400s", () => {
  test.each([
    [{ type: "integer", minimum: 1 }, undefined, "an integer of at least 1"],
    [{ type: "integer", maximum: 9 }, undefined, "an integer of at most 9"],
    [{ type: "integer", minimum: 1, maximum: 10 }, undefined, "an integer from 1 to 10"],
    [{ type: "integer" }, undefined, "an integer"],
    [{ type: "string", enum: ["Active", "Closed", "Operator"] }, undefined, "one of Active, Closed, Operator"],
    [{ const: "Event" }, undefined, '"Event"'],
    [{ type: "string", format: "date-time" }, "2026-11-20T09:15:02+03:00", "an ISO 8601 date-time such as 2026-11-20T09:15:02+03:00"],
    [{ type: "string", format: "date-time" }, undefined, "an ISO 8601 date-time"],
    [{ type: "string" }, undefined, "a string"],
    [{ type: "string", minLength: 1 }, undefined, "a non-empty string"],
    [{ type: ["string", "null"] }, undefined, "a string or null"],
    [
      { anyOf: [{ type: "string", minLength: 1 }, { type: "number" }, { type: "boolean" }, { type: "object" }] },
      undefined,
      "a non-empty string, a number, true or false, or an object",
    ],
    [{ type: "array" }, undefined, "an array"],
    [{ $ref: "#/components/schemas/Member" }, undefined, "a Member"],
    [{ anyOf: [{ $ref: "#/components/schemas/ExternalEventTrigger" }, { type: "null" }] }, undefined, "an ExternalEventTrigger or null"],
  ])("%j (example %s): %s", (schema, example, words) => {
    expect(expectedOfSchema(schema, example)).toBe(words);
  });

  test("a labelled wrong value is its label, a colon, and the wording without a label", () => {
    expect(wrongValueText("pageSize", "an integer of at least 1", '"ten"')).toBe('pageSize: expected an integer of at least 1; got "ten"');
    expect(`query.pageSize: ${expectedButGot("an integer of at least 1", "0")}`).toBe(wrongValueText("query.pageSize", "an integer of at least 1", "0"));
  });
});
