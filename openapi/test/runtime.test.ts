import { describe, expect, it } from "vitest";
import { createAjv, documentValidator } from "../src/ajv.ts";
import { parseDateTime } from "../src/date-time.ts";
import { jsonPointer, pointerKeys, readDescription } from "../src/description.ts";
import { description, searchParameterNames } from "./support/description.ts";

const reader = readDescription(description);

describe("readDescription: the one reader of the description", () => {
  it("finds an operation by id, with its method, path and pointer", () => {
    const search = reader.operation("searchConversations");
    expect(search).toMatchObject({ method: "get", path: "/api/v2/channels/conversations", pointer: "#/paths/~1api~1v2~1channels~1conversations/get" });
    expect(reader.operations.map((operation) => operation.id).sort()).toEqual(["fireExternalEvent", "listExternalEventTriggers", "searchConversations"]);
    expect(() => reader.operation("exportConversation")).toThrow("The description has no operation exportConversation");
  });

  it("lists an operation's parameters in the description's order, each `$ref` followed to its schema", () => {
    const parameters = reader.operation("searchConversations").parameters;
    // The names from the bundle, each `$ref` looked up by hand: a parameter added to the description is expected here with no edit.
    expect(parameters.map((parameter) => parameter.name)).toEqual(searchParameterNames());
    expect(parameters.length).toBeGreaterThan(2);
    const status = parameters.find((parameter) => parameter.name === "status")!;
    expect(status).toMatchObject({ in: "query", required: false });
    // The status parameter's schema is a reference to the enumeration: followed to it.
    expect(status.schema["enum"]).toEqual(["Active", "Closed", "Operator"]);
    expect(reader.at(status.schemaPointer)).toBe(status.schema);
    const path = reader.operation("listExternalEventTriggers").parameters[0]!;
    expect(path).toMatchObject({ name: "agentStageId", in: "path", required: true });
  });

  it("reads a schema by name, follows a chain of references and dereferences at any depth", () => {
    expect(reader.schema("ConversationStatus")["enum"]).toEqual(["Active", "Closed", "Operator"]);
    expect(() => reader.schema("Nothing")).toThrow("The description has no schema Nothing");
    expect(reader.resolveNode({ $ref: "#/components/schemas/ConversationStatus" })).toBe(reader.schema("ConversationStatus"));
    const summary = reader.dereference(reader.schema("ConversationSummary"));
    expect(JSON.stringify(summary)).not.toContain("$ref");
    expect((summary["properties"] as Record<string, Record<string, unknown>>)["status"]!["enum"]).toEqual(["Active", "Closed", "Operator"]);
    expect(() => reader.at("#/components/schemas/Nothing")).toThrow("The description has nothing at #/components/schemas/Nothing");
  });

  it("escapes and unescapes JSON pointers (RFC 6901)", () => {
    expect(jsonPointer("paths", "/a/b", "x~y")).toBe("#/paths/~1a~1b/x~0y");
    expect(pointerKeys("#/paths/~1a~1b/x~0y")).toEqual(["paths", "/a/b", "x~y"]);
    expect(pointerKeys("/items/0")).toEqual(["items", "0"]);
    expect(pointerKeys("#")).toEqual([]);
  });
});

describe("createAjv: the one Ajv, whose date-time is parseDateTime", () => {
  const dateTime = createAjv().compile({ type: "string", format: "date-time" });
  it.each([
    "2025-01-01T10:00:00+03",
    "2025-01-01T10:00:60Z",
    "2025-01-01 10:00:00Z",
    "2025-01-01",
    "2025-01-01T10:00:00",
    "2025-02-30T10:00:00Z",
    "2025-01-01T24:00:00Z",
  ])("refuses %s, as parseDateTime does", (text) => {
    expect(parseDateTime(text)).toBeNaN();
    expect(dateTime(text)).toBe(false);
  });

  it.each(["2025-01-01T10:00:00Z", "2025-01-01T10:00:00.123+03:00", "2025-01-01t10:00:00z"])("accepts %s", (text) => {
    expect(parseDateTime(text)).toBe(Date.parse(text.toUpperCase()));
    expect(dateTime(text)).toBe(true);
  });

  it("keeps ajv-formats' other formats", () => {
    expect(createAjv().compile({ type: "string", format: "uri" })("not a uri")).toBe(false);
  });
});

describe("documentValidator: schemas of one document, by pointer or inline", () => {
  const validator = documentValidator(description);
  const summary = (reader.at("#/components/examples/ConversationPageSingle") as { value: { items: Record<string, unknown>[] } }).value.items[0]!;

  it("passes the description's own example and fails a startedOn with a space for the T", () => {
    expect(validator.problemsOf("#/components/schemas/ConversationSummary", summary)).toEqual([]);
    const spaced = { ...summary, startedOn: String(summary["startedOn"]).replace("T", " ") };
    expect(validator.problemsOf({ $ref: "#/components/schemas/ConversationSummary" }, spaced)).toEqual(['/startedOn must match format "date-time"']);
  });
});
