import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../src/csp.ts";
import { bundlePath } from "../src/paths.ts";
import { sandboxUrl, tryItConfig } from "../src/try-it/build.ts";
import type { FormBundle } from "../src/try-it/form.ts";
import { buildRequest, connectAllowed, curlLine, shellQuote, TryItInputError } from "../src/try-it/request.ts";

const bundle = JSON.parse(readFileSync(bundlePath, "utf8")) as FormBundle & {
  components: {
    parameters: Record<string, { name: string; in: string }>;
    schemas: Record<string, { oneOf?: { $ref: string }[]; properties?: Record<string, unknown> }>;
  };
};
const config = tryItConfig(bundle);
const operation = (operationId: string) => config.operations.find((candidate) => candidate.operationId === operationId)!;

describe("the forms, generated from the description", () => {
  it("one per operation, with a field per parameter of the description, in its place", () => {
    for (const [path, item] of Object.entries(bundle.paths)) {
      for (const [method, value] of Object.entries(item)) {
        const described = value as { operationId?: string; parameters?: { $ref: string }[] };
        if (!described.operationId) continue;
        const shared = (item["parameters"] as { $ref: string }[] | undefined) ?? [];
        const parameters = [...shared, ...(described.parameters ?? [])].map(({ $ref }) => bundle.components.parameters[$ref.split("/").at(-1)!]!);
        const form = operation(described.operationId);
        expect([form.method, form.path]).toEqual([method.toUpperCase(), path]);
        expect(form.fields.filter((field) => field.in !== "body").map((field) => `${field.in} ${field.name}`)).toEqual(
          parameters.map((parameter) => `${parameter.in} ${parameter.name}`),
        );
      }
    }
  });

  it("the fire's body: every property of both variants, externalEventId required, one of the two identifiers, the payload as JSON", () => {
    const fire = operation("fireExternalEvent");
    const variants = bundle.components.schemas["FireExternalEventRequest"]!.oneOf!.map(
      ({ $ref }) => bundle.components.schemas[String($ref).split("/").at(-1)!]!,
    );
    const properties = new Set(
      variants.flatMap((variant) =>
        Object.entries(variant.properties ?? {})
          .filter(([, schema]) => schema !== false)
          .map(([name]) => name),
      ),
    );
    expect(fire.fields.map((field) => field.name).sort()).toEqual([...properties].sort());
    expect(fire.fields.filter((field) => field.required).map((field) => field.name)).toEqual(["externalEventId"]);
    expect(fire.bodyNote).toBe("Give one of conversationId or externalConversationId: each variant of the body requires one.");
    expect(fire.fields.find((field) => field.name === "externalEventPayload")?.kind).toBe("json");
  });

  it("an enumeration is a choice of its values; examples come from the description", () => {
    const status = operation("searchConversations").fields.find((field) => field.name === "status")!;
    expect(status).toMatchObject({ kind: "choice", choices: ["Active", "Closed", "Operator"] });
    expect(operation("searchConversations").fields.find((field) => field.name === "pageSize")).toMatchObject({ type: "integer, at least 1", example: "20" });
  });

  it("offers the local sandbox at its default address first, then the description's servers", () => {
    expect(config.servers.map((server) => server.url)).toEqual([sandboxUrl, bundle.servers![0]!.url]);
    expect(sandboxUrl).toBe("http://127.0.0.1:4011");
  });
});

describe("the request a form makes", () => {
  const search = operation("searchConversations");
  const triggers = operation("listExternalEventTriggers");
  const fire = operation("fireExternalEvent");

  it("query parameters in the description's order, empty ones left out, the token as X-Token", () => {
    const request = buildRequest(search, "http://127.0.0.1:4011/", { pageSize: "2", agentStageId: "bot 1", status: "" }, "secret-token");
    expect(request).toEqual({
      method: "GET",
      url: "http://127.0.0.1:4011/api/v2/channels/conversations?agentStageId=bot+1&pageSize=2",
      headers: { "X-Token": "secret-token" },
    });
  });

  it("a path parameter is encoded into the path, and is required", () => {
    expect(buildRequest(triggers, "http://localhost:4010", { agentStageId: "a/b" }, "").url).toBe(
      "http://localhost:4010/api/v1/runtime/simple/external/events/a%2Fb",
    );
    expect(() => buildRequest(triggers, "http://localhost:4010", {}, "t")).toThrow(
      new TryItInputError("agentStageId: required, it is part of the path; expected a value"),
    );
  });

  it("a JSON body of the filled properties; a payload that is not JSON names the field and sends nothing", () => {
    const request = buildRequest(
      fire,
      "http://127.0.0.1:4011",
      { conversationId: "c-1", externalEventId: "order-status-changed", externalEventPayload: '{"orderNumber":"10482"}' },
      "t",
    );
    expect(request.body).toBe('{"conversationId":"c-1","externalEventId":"order-status-changed","externalEventPayload":{"orderNumber":"10482"}}');
    expect(request.headers).toEqual({ "X-Token": "t", "Content-Type": "application/json" });
    expect(() => buildRequest(fire, "http://127.0.0.1:4011", { externalEventPayload: "{orderNumber: 1}" }, "t")).toThrow(
      /^externalEventPayload: expected object, as JSON; /,
    );
  });

  it.each(["", "127.0.0.1:4011", "ftp://example.com"])("refuses the server address %j, naming what was expected", (server) => {
    expect(() => buildRequest(search, server, {}, "t")).toThrow(`Server address: expected an http:// or https:// address; got ${JSON.stringify(server)}`);
  });

  it("refuses a server address with a query or a fragment, and keeps a base path", () => {
    expect(() => buildRequest(search, "http://127.0.0.1:4011/?x", {}, "t")).toThrow(
      'Server address: expected a base address, without ? or #; got "http://127.0.0.1:4011/?x"',
    );
    expect(buildRequest(search, "https://api.example.com/bot/", {}, "t").url).toBe("https://api.example.com/bot/api/v2/channels/conversations");
  });

  it("as curl: the token from $BOT_CONVERSATION_TOKEN, never itself; quotes that survive the shell", () => {
    const request = buildRequest(fire, "http://127.0.0.1:4011", { externalConversationId: "s|livechat", externalEventId: "it's" }, "secret-token");
    const line = curlLine(request);
    expect(line).toBe(
      `curl 'http://127.0.0.1:4011/api/v1/runtime/simple/external/events' --header "X-Token: $BOT_CONVERSATION_TOKEN" --header 'Content-Type: application/json' --data '{"externalConversationId":"s|livechat","externalEventId":"it'\\''s"}'`,
    );
    expect(line).not.toContain("secret-token");
    expect(curlLine({ method: "DELETE", url: "http://x/y", headers: {} })).toBe("curl --request DELETE 'http://x/y'");
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});

describe("the page's Content-Security-Policy decides where the panel may send", () => {
  const policy = contentSecurityPolicy("<p></p>");
  it.each([
    ["http://127.0.0.1:4011/api", true],
    ["http://localhost:4010/api", true],
    ["http://docs.example:8080/api", true],
    ["https://127.0.0.1:4011/api", false],
    ["https://api.example.com/api", false],
    ["http://127.0.0.2:4011/api", false],
  ])("%s: %s", (url, allowed) => {
    expect(connectAllowed(url, policy, "http://docs.example:8080")).toBe(allowed);
  });
});
