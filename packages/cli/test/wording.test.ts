import { createSandbox, type Sandbox } from "@bot-conversation/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parametersOf, parameterValue } from "../src/description.ts";

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
