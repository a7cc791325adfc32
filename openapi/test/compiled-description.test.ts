import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileDescription } from "../src/compiled-description.ts";
import { readDescription } from "../src/description.ts";
import { decodePathSegment, parsePathTemplate } from "../src/path-template.ts";
import { description } from "./support/description.ts";

describe("parsePathTemplate: the one matcher of a path template", () => {
  const triggers = parsePathTemplate("/api/v1/runtime/simple/external/events/{agentStageId}");
  const several = parsePathTemplate("/bots/{agentStageId}/conversations/{conversationId}/export");

  it("gives every parameter of a template with several, by name, in the template's order", () => {
    expect(several.parameterNames).toEqual(["agentStageId", "conversationId"]);
    expect(several.match("/bots/bot-1/conversations/c-9/export")).toEqual({ agentStageId: "bot-1", conversationId: "c-9" });
    expect(several.match("/bots/bot-1/conversations/c-9")).toBeUndefined();
    expect(several.match("/bots/bot-1/conversations//export")).toBeUndefined();
    // The same on a path split once, as compileDescription tries many templates: only paths of its number of segments.
    expect(several.segmentCount).toBe("/bots/bot-1/conversations/c-9/export".split("/").length);
    expect(several.matchSegments("/bots/bot-1/conversations/c-9/export".split("/"))).toEqual({ agentStageId: "bot-1", conversationId: "c-9" });
    expect(several.matchSegments("bots/bot-1/conversations/c-9/export/x".split("/"))).toBeUndefined();
  });

  it.each([
    ["bot%201", "bot 1"],
    ["%C3%A9t%C3%A9", "été"],
    ["a%2Fb", "a/b"],
    ["a%3Fb%23c", "a?b#c"],
    ["100%25", "100%"],
    ["%zz", "%zz"],
    ["a%20b%E0%A4", "a b%E0%A4"],
  ])("decodes a parameter sent as %s to %j (an encoded slash stays inside it; a malformed escape stays as sent)", (sent, value) => {
    expect(triggers.match(`/api/v1/runtime/simple/external/events/${sent}`)).toEqual({ agentStageId: value });
    expect(decodePathSegment(sent)).toBe(value);
  });

  it.each([
    ["a trailing slash", "/api/v1/runtime/simple/external/events/bot-1/"],
    ["an empty parameter", "/api/v1/runtime/simple/external/events/"],
    ["a slash inside the parameter, not encoded", "/api/v1/runtime/simple/external/events/a/b"],
    ["a segment less", "/api/v1/runtime/simple/external"],
    ["another fixed segment", "/api/v2/runtime/simple/external/events/bot-1"],
    ["another letter case", "/API/v1/runtime/simple/external/events/bot-1"],
    ["no leading slash", "api/v1/runtime/simple/external/events/bot-1"],
    ["an unknown path", "/anything"],
    ["the root", "/"],
  ])("does not match %s", (_, path) => {
    expect(triggers.match(path)).toBeUndefined();
  });

  it("matches a fixed segment written encoded (as Hono routes it) and a template without parameters", () => {
    expect(triggers.match("/api/v1/runtime/simple/external/%65vents/bot-1")).toEqual({ agentStageId: "bot-1" });
    const search = parsePathTemplate("/api/v2/channels/conversations");
    expect(search.match("/api/v2/channels/conversations")).toEqual({});
    expect(search.match("/api/v2/channels/conversations/")).toBeUndefined();
  });

  it("matches parameters inside a segment on its decoded text", () => {
    const file = parsePathTemplate("/files/{name}.{format}");
    expect(file.match("/files/report.final.json")).toEqual({ name: "report", format: "final.json" });
    expect(file.match("/files/a%2Eb")).toEqual({ name: "a", format: "b" });
    expect(file.match("/files/.json")).toBeUndefined();
  });

  it("fills a template for another router or a request", () => {
    expect(several.fill((name) => `:${name}`)).toBe("/bots/:agentStageId/conversations/:conversationId/export");
    expect(triggers.fill(() => "*")).toBe("/api/v1/runtime/simple/external/events/*");
    expect(several.fill((name) => encodeURIComponent(name === "agentStageId" ? "a/b" : "c"))).toBe("/bots/a%2Fb/conversations/c/export");
  });

  it.each([
    ["api/v1", "does not start with /"],
    ["/a/{b", "has a { or } that opens or closes no parameter"],
    ["/a/b}", "has a { or } that opens or closes no parameter"],
    ["/a/{}", "has an empty parameter {}"],
    ["/a/{b}/{b}", "names the parameter b twice"],
  ])("refuses the template %s, naming it", (template, why) => {
    expect(() => parsePathTemplate(template)).toThrow(`The path template ${JSON.stringify(template)} ${why}`);
  });
});

describe("compileDescription: the service's description compiled once", () => {
  const reader = readDescription(description);
  const compiled = compileDescription(description);

  it("has every operation of the reader, with its parameters as the reader gives them", () => {
    expect(compiled.operations.map(({ id, method, path }) => ({ id, method, path }))).toEqual(
      reader.operations.map(({ id, method, path }) => ({ id, method, path })),
    );
    for (const operation of compiled.operations) expect(operation.parameters).toEqual(reader.operation(operation.id).parameters);
    expect(compiled.operation("fireExternalEvent").template.template).toBe("/api/v1/runtime/simple/external/events");
    expect(() => compiled.operation("exportConversation")).toThrow("The description has no operation exportConversation");
  });

  it("finds each operation by its method and a path of its template, with the path parameters decoded", () => {
    for (const operation of compiled.operations) {
      const path = operation.template.fill(() => encodeURIComponent("bot/1 é"));
      const found = compiled.operationOf(operation.method.toUpperCase(), path);
      expect(found?.operation.id, path).toBe(operation.id);
      expect(found?.pathParameters).toEqual(Object.fromEntries(operation.template.parameterNames.map((name) => [name, "bot/1 é"])));
    }
    expect(compiled.operationOf("get", "/api/v1/runtime/simple/external/events/bot-1")?.operation.id).toBe("listExternalEventTriggers");
  });

  it("answers a HEAD with its GET's operation, and nothing for another method, an unknown path or a trailing slash", () => {
    expect(compiled.operationOf("HEAD", "/api/v2/channels/conversations")?.operation.id).toBe("searchConversations");
    expect(compiled.operationOf("POST", "/api/v2/channels/conversations")).toBeUndefined();
    expect(compiled.operationOf("HEAD", "/api/v1/runtime/simple/external/events")).toBeUndefined();
    expect(compiled.operationOf("GET", "/api/v3/anything")).toBeUndefined();
    expect(compiled.operationOf("GET", "/api/v2/channels/conversations/")).toBeUndefined();
  });

  it("gives the methods of a path, HEAD wherever GET is", () => {
    for (const operation of compiled.operations) {
      const path = operation.template.fill(() => "x");
      const described = compiled.operations.filter((other) => other.template.match(path)).map((other) => other.method.toUpperCase());
      expect(compiled.methodsOf(path).sort()).toEqual((described.includes("GET") ? [...described, "HEAD"] : described).sort());
    }
    expect(compiled.methodsOf("/api/v2/channels/conversations")).toEqual(["GET", "HEAD"]);
    expect(compiled.methodsOf("/api/v1/runtime/simple/external/events")).toEqual(["POST"]);
    expect(compiled.methodsOf("/api/v3/anything")).toEqual([]);
  });

  it("gives each operation's security from the document's own, with the API key's header, and its responses with `$ref`s followed", () => {
    const [[scheme, scopes]] = Object.entries((description as unknown as { security: Record<string, string[]>[] }).security[0]!) as [[string, string[]]];
    const declared = (description.components as unknown as { securitySchemes: Record<string, { name: string }> }).securitySchemes[scheme]!;
    for (const operation of compiled.operations) {
      expect(operation.security).toEqual([[{ scheme, type: "apiKey", header: declared.name, scopes }]]);
      const written = Object.keys(operation.node["responses"] as object);
      expect([...operation.responses.keys()]).toEqual(written);
      for (const response of operation.responses.values()) {
        expect(response).not.toHaveProperty("$ref");
        expect(typeof response["description"]).toBe("string");
      }
    }
    expect(compiled.operation("listExternalEventTriggers").responses.get("401")).toBe(reader.resolve("#/components/responses/Unauthorized"));
  });

  it("compiles from the reader as well, reading the document once", () => {
    expect(compileDescription(reader).reader).toBe(reader);
  });

  it("needs no Node: its sources import nothing of node:", () => {
    for (const file of ["compiled-description.ts", "path-template.ts", "description.ts"])
      expect(readFileSync(new URL(`../src/${file}`, import.meta.url), "utf8")).not.toMatch(/from "node:/);
  });
});

describe("compileDescription: security and matching of other documents", () => {
  const ok = { responses: { "200": { description: "OK" } } };
  const document = {
    openapi: "3.1.0",
    security: [{ Token: [] }],
    paths: {
      "/items/{id}": {
        get: { operationId: "getItem", ...ok },
        delete: { operationId: "removeItem", security: [{ Admin: [] }, { Token: [], Bearer: ["write"] }], ...ok },
      },
      "/items/mine": { get: { operationId: "myItems", security: [], ...ok }, head: { operationId: "peekMyItems", security: [{}], ...ok } },
    },
    components: {
      securitySchemes: {
        Token: { type: "apiKey", in: "header", name: "X-Token" },
        Admin: { $ref: "#/components/securitySchemes/Token" },
        Bearer: { type: "http", scheme: "bearer" },
      },
    },
  };
  const compiled = compileDescription(document);

  it("reads alternatives of schemes, an operation's own requirement over the document's, none, and anonymous", () => {
    const token = { scheme: "Token", type: "apiKey", header: "X-Token", scopes: [] };
    expect(compiled.operation("getItem").security).toEqual([[token]]);
    expect(compiled.operation("removeItem").security).toEqual([
      [{ scheme: "Admin", type: "apiKey", header: "X-Token", scopes: [] }],
      [token, { scheme: "Bearer", type: "http", header: "Authorization", scopes: ["write"] }],
    ]);
    expect(compiled.operation("myItems").security).toEqual([]);
    expect(compiled.operation("peekMyItems").security).toEqual([[]]);
    // The document's own, which a path no operation describes falls under.
    expect(compiled.security).toEqual([[token]]);
    expect(compileDescription({ openapi: "3.1.0", paths: {} }).security).toEqual([]);
  });

  it("matches a concrete path before a templated one, and a HEAD the description gives before its GET", () => {
    expect(compiled.operationOf("GET", "/items/mine")?.operation.id).toBe("myItems");
    expect(compiled.operationOf("GET", "/items/min%65")?.operation.id).toBe("myItems");
    expect(compiled.operationOf("GET", "/items/yours")).toMatchObject({ operation: { id: "getItem" }, pathParameters: { id: "yours" } });
    expect(compiled.operationOf("HEAD", "/items/mine")?.operation.id).toBe("peekMyItems");
    expect(compiled.operationOf("HEAD", "/items/yours")?.operation.id).toBe("getItem");
    // Without HEAD as GET (the recorder judges only the methods a description names): a HEAD described is still found.
    expect(compiled.operationOf("HEAD", "/items/yours", { headAsGet: false })).toBeUndefined();
    expect(compiled.operationOf("HEAD", "/items/mine", { headAsGet: false })?.operation.id).toBe("peekMyItems");
    expect(compiled.operationOf("GET", "/items/yours", { headAsGet: false })?.operation.id).toBe("getItem");
  });

  it("gives a path the methods operationOf finds an operation for: the concrete path's and the template's alike", () => {
    expect(compiled.methodsOf("/items/mine").sort()).toEqual(["DELETE", "GET", "HEAD"]);
    expect(compiled.operationOf("DELETE", "/items/mine")).toMatchObject({ operation: { id: "removeItem" }, pathParameters: { id: "mine" } });
    for (const path of ["/items/mine", "/items/yours", "/items", "/items/mine/"])
      for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
        expect(compiled.methodsOf(path).includes(method), `${method} ${path}`).toBe(compiled.operationOf(method, path) !== undefined);
  });

  it.each([
    [{ ...document, security: [{ Nobody: [] }] }, "The description's security at #/security names Nobody, which components.securitySchemes does not define"],
    [{ ...document, security: "Token" }, "The description's security at #/security: expected a list of requirements; got string"],
    [{ ...document, security: ["Token"] }, 'The description\'s security at #/security/0: expected an object of scheme names; got "Token"'],
    [{ paths: { "/a/{b": { get: ok } } }, 'The path template "/a/{b" has a { or } that opens or closes no parameter'],
  ])("refuses a document it cannot read, saying where (%#)", (given, message) => {
    expect(() => compileDescription(given)).toThrow(message);
  });
});
