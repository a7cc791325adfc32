import { describe, expect, it } from "vitest";
import { runConformance, ServerUnusableError } from "../src/index.ts";
import { type Fault, startFaultyProxy } from "./support/faulty-proxy.ts";
import { fixtureBot, kitRequestTimeoutMs, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();
const refused = { status: 401, headers: { "content-type": "application/json" }, body: '{"message":"Authorization failed"}' };

/** The error a run stops with against the sandbox behind `fault`, with `token`. */
async function stopWith(fault: Fault, token = "sandbox-token"): Promise<string> {
  const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, fault);
  try {
    const error = await runConformance({ baseUrl: proxy.url, token, agentStageId: fixtureBot, rate: 0, timeoutMs: kitRequestTimeoutMs }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServerUnusableError);
    const message = (error as Error).message;
    expect(message).not.toContain(token);
    return message;
  } finally {
    await proxy.close();
  }
}

describe("every request with the token refused: the kit finds out what the server refuses before it blames the token", () => {
  it("a wrong token: the token is blamed", async () => {
    expect(await stopWith({}, "not-the-sandbox-token")).toMatch(
      /refused the token \(401 on searchConversations, with every Accept and User-Agent tried, and on the trigger list\); check --token\.$/,
    );
  });

  it("a server refusing Accept: application/json: the detail is named, the token is not at fault", async () => {
    const message = await stopWith({ request: (_url, headers) => (headers.get("accept") === "application/json" ? refused : undefined) });
    expect(message).toMatch(/answered 200 to the same search with Accept: \*\/\* instead of Accept: application\/json: .* the token is not at fault\.$/);
  });

  it("a server refusing the token on the search only: the search is named", async () => {
    const message = await stopWith({ request: (url) => (url.pathname === "/api/v2/channels/conversations" ? refused : undefined) });
    expect(message).toContain(
      `answered 200 to the trigger list of ${fixtureBot} with the same token: the token is accepted, and the server refuses it on the search only`,
    );
  });

  it("a server answering 401 to everything: the address and its gateway are named before the token", async () => {
    expect(await stopWith({ request: () => refused })).toContain(
      "answers 401 to everything, a CORS preflight (which never carries a token) and a path that does not exist too: check --base-url",
    );
  });
});
