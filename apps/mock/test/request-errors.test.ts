import { hangGuardMs } from "@bot-conversation/test-support/timeouts";
import { describe, expect, it } from "vitest";
import { type Operation, operations } from "./support/bundle.ts";
import { jsonBody, token, useMock } from "./support/mock.ts";

const mock = useMock();

/** A Prism problem+json body, in the parts these tests read. */
interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  validation?: { location: string[]; message: string }[];
}

const search = operations.find(({ operationId }) => operationId === "searchConversations") as Operation;
const fire = operations.find(({ operationId }) => operationId === "fireExternalEvent") as Operation;

describe("a request body that is not JSON (stoplightio/prism#2664, patched)", () => {
  it.each(['{"conversationId":"0b6e2a4c', "not json at all"])("answers %j at once with 400 problem+json saying so", async (body) => {
    const response = await fetch(`${mock().url}${fire.path}`, {
      method: "POST",
      headers: { ...token, "content-type": "application/json" },
      body,
      // Unpatched Prism never answers: fail well before the test's own time-out, still only at a hang.
      signal: AbortSignal.timeout(hangGuardMs(3_000)),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await jsonBody(response)) as Problem;
    expect(problem.title).toBe("Request body is not valid JSON");
    expect(problem.detail).toMatch(/^The request body could not be parsed as application\/json: /);
  });
});

describe("a search filter that breaks its schema", () => {
  it.each([
    ["status", "closed"],
    ["status", "ACTIVE"],
    ["pageSize", "0"],
    ["pageSize", "abc"],
    ["pageIndex", "-1"],
    ["startFromDate", "2026-11-20"],
    ["startFromDate", "yesterday"],
    ["latestMessageToDate", "soon"],
  ])("%s=%s answers 422 with Prism's problem document naming the parameter, not an authorization failure", async (name, value) => {
    const response = await fetch(`${mock().url}${search.path}?${new URLSearchParams({ [name]: value })}`, { headers: token });
    expect(response.status).toBe(422);
    // Served in the media type the search's `4XX` range documents, so the answer keeps to the description.
    expect(response.headers.get("content-type")).toBe("application/json");
    const problem = (await jsonBody(response)) as Problem;
    expect(problem.validation?.map(({ location }) => location.join(".").toLowerCase())).toEqual([`query.${name.toLowerCase()}`]);
    expect(JSON.stringify(problem)).not.toMatch(/Authorization|X-Token/);
  });

  it("a fire request with neither identifier names the rule it breaks", async () => {
    const response = await fetch(`${mock().url}${fire.path}`, {
      method: "POST",
      headers: { ...token, "content-type": "application/json" },
      body: JSON.stringify({ externalEventId: "order-status-changed" }),
    });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/json");
    const problem = (await jsonBody(response)) as Problem;
    expect(problem.validation?.length).toBeGreaterThan(0);
    expect(JSON.stringify(problem.validation)).toMatch(/conversationId|externalConversationId/);
  });
});

describe("forced client errors on search", () => {
  it("answers a missing token with its own 401 example", async () => {
    const response = await fetch(`${mock().url}${search.path}`);
    expect(response.status).toBe(401);
    expect(JSON.stringify(await jsonBody(response))).toMatch(/Authorization failed/);
  });

  it.each([400, 404, 418])("Prefer: code=%i answers the 4XX example, which claims no authorization failure", async (status) => {
    const response = await fetch(`${mock().url}${search.path}`, { headers: { ...token, Prefer: `code=${status}` } });
    expect(response.status).toBe(status);
    const body = JSON.stringify(await jsonBody(response));
    expect(body).not.toMatch(/Authorization|X-Token/);
    expect(body).toMatch(/does not list the client errors/);
  });
});
