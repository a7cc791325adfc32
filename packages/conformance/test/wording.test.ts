import { wrongValueText } from "@bot-conversation/client/text";
import { describe, expect, it } from "vitest";
import { runConformance, UsageError } from "../src/index.ts";

describe("a wrong value is worded one way: the client's wrongValueText, as the CLI and the MCP server word theirs", () => {
  it.each([
    [{ examples: 0 }, wrongValueText("examples", "an integer of at least 1", "0")],
    [{ rate: -1 }, wrongValueText("rate", "a number of requests per second, 0 for no limit", "-1")],
    [{ exportPath: "export" }, wrongValueText("exportPath", "a path starting with / and holding {conversationId}", '"export"')],
  ])("%j", async (options, message) => {
    const error = await runConformance({ baseUrl: "http://127.0.0.1:1", token: "t", ...options }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
    expect(message).toMatch(/^\w+: expected .+; got .+$/);
  });
});
