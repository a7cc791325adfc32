import { loadDescription } from "@bot-conversation/conformance";
import { createSandbox, type Sandbox } from "@bot-conversation/sandbox";
import { conversation, page } from "@bot-conversation/test-support/hostile-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parametersOf, parameterValue } from "../src/description.ts";
import { checkArguments, tools } from "../src/mcp/tools.ts";
import { ExchangeValidator } from "../src/record/validation.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ conversations: 5 });
});
afterAll(() => sandbox.close());

describe("a wrong value is worded one way: the sandbox's 400 says what the CLI's flag check says", () => {
  it.each([
    ["pageSize", "ten"],
    ["pageSize", "0"],
    ["pageIndex", "-1"],
    ["status", "Open"],
    ["startFromDate", "yesterday"],
    ["latestMessageToDate", "2026-11-20"],
    ["startToDate", "2025-01-01T10:00:00+03"],
  ])("%s=%s", async (name, text) => {
    const parameter = parametersOf("searchConversations").find((each) => each.name === name)!;
    // The CLI's words, labelled as the sandbox places the value (query.<name>); it refuses before sending.
    const cli = await parameterValue(parameter, text, `query.${name}`).then(
      () => "accepted",
      (error: Error) => error.message,
    );
    const response = await sandbox.fetch(`http://sandbox/api/v2/channels/conversations?${new URLSearchParams({ [name]: text })}`, {
      headers: { "X-Token": "sandbox-token" },
    });
    expect(response.status).toBe(400);
    const { errors } = (await response.json()) as { errors: { path: string; message: string }[] };
    expect(errors).toHaveLength(1);
    expect(`${errors[0]!.path}: ${errors[0]!.message}`).toBe(cli);
    // Not "accepted": the CLI refused it too, showing the text as it was sent.
    expect(cli.startsWith(`query.${name}: expected `) && cli.endsWith(`; got ${JSON.stringify(text)}`)).toBe(true);
  });
});

/**
 * Issue 49's one wording of a schema error: the same wrong value (a status outside ConversationStatus) as each
 * surface says it, every one `<its place>: expected one of Active, Closed, Operator; got …` from the client's
 * `schemaProblem`: the value shown where the caller sent it (the sandbox, the CLI, MCP), only its type where it
 * may be an end user's (the recorder, the kit).
 */
describe("a schema error is worded one way by the sandbox, the CLI, MCP, the recorder and the kit", () => {
  const expected = "expected one of Active, Closed, Operator";

  it("status=Weird in a search, and in a page's item", async () => {
    const sandboxSays = await sandbox
      .fetch("http://sandbox/api/v2/channels/conversations?status=Weird", { headers: { "X-Token": "sandbox-token" } })
      .then(async (response) =>
        ((await response.json()) as { errors: { path: string; message: string }[] }).errors.map((error) => `${error.path}: ${error.message}`),
      );
    const status = parametersOf("searchConversations").find((each) => each.name === "status")!;
    const cliSays = await parameterValue(status, "Weird").catch((error: Error) => error.message);
    const search = tools(false).find((tool) => tool.definition.name === "search_conversations")!;
    let mcpSays = "";
    try {
      checkArguments(search, { status: "Weird" });
    } catch (error) {
      mcpSays = (error as Error).message;
    }
    const validator = new ExchangeValidator(loadDescription());
    const exchange = {
      method: "GET",
      path: "/api/v2/channels/conversations",
      query: { status: "Weird" },
      requestJson: undefined,
      hasRequestBody: false,
      status: 200,
      headers: new Headers({ "content-type": "application/json" }),
      text: "",
      json: undefined,
      isJson: false,
      invalidUtf8: false,
    };
    const recorderSays = validator
      .observe(exchange, validator.match("GET", exchange.path), { pageBase: 0, decisions: {} })
      .filter((observation) => observation.pointer === "/query/status")
      .map((observation) => `${observation.pointer}: ${observation.message}`);
    const item = { ...conversation("c-1", "hello"), status: "Weird" };
    const kitSays = loadDescription().problemsOf("#/components/schemas/ConversationPage", page([item]));

    expect({ sandboxSays, cliSays, mcpSays, recorderSays, kitSays }).toEqual({
      sandboxSays: [`query.status: ${expected}; got "Weird"`],
      cliSays: `--status: ${expected}; got "Weird"`,
      mcpSays: `status: ${expected}; got "Weird"`,
      recorderSays: [`/query/status: request: ${expected}; got a string`],
      kitSays: [`/items/0/status: ${expected}; got a string`],
    });
  });
});
