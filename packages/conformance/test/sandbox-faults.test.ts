import { describe, expect, it } from "vitest";
import { runConformance, type CheckName, type ConformanceReport } from "../src/index.ts";
import { loadDescription } from "../src/description.ts";
import { editJson, startFaultyProxy, type Fault } from "./support/faulty-proxy.ts";
import { fixtureBot, fixtureConversation, sandboxExportPath, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();
const description = loadDescription();
const searchPath = description.operations.get("searchConversations")!.path;
const statuses = description.resolve("#/components/schemas/ConversationStatus")["enum"] as string[];
const isSearch = (url: URL): boolean => url.pathname === searchPath;
const firePath = description.operations.get("fireExternalEvent")!.path;
const editPage = (edit: (page: Record<string, unknown>) => void): NonNullable<Fault["response"]> => (url, response) => {
  if (isSearch(url) && response.status === 200)
    editJson(response, (page) => {
      edit(page as Record<string, unknown>);
      return page;
    });
};

/** Each fault put between the kit and a correct server, and the one check meant to catch it. */
const faults: ReadonlyArray<{ name: string; check: CheckName; fault: Fault }> = [
  { name: "paging math (totalPageCount one too many)", check: "envelope_math", fault: { response: editPage((page) => void (page["totalPageCount"] = Number(page["totalPageCount"]) + 1)) } },
  {
    name: "a filter ignored (a valid status is checked, then dropped)",
    check: "filter_match",
    fault: { request: (url) => void (isSearch(url) && statuses.includes(url.searchParams.get("status") ?? "") && url.searchParams.delete("status")) },
  },
  {
    name: "auth ignored (any token let in)",
    check: "ignored_auth",
    fault: { request: (_, headers) => void headers.set("x-token", "sandbox-token") },
  },
  {
    name: "an extra property in the export",
    check: "response_schema_conformance",
    fault: { response: (url, response) => void (url.pathname.endsWith("/export") && editJson(response, (body) => ({ ...(body as object), extra: true }))) },
  },
  {
    name: "a wrong content type (text/plain on search)",
    check: "content_type_conformance",
    fault: { response: (url, response) => void (isSearch(url) && (response.headers["content-type"] = "text/plain")) },
  },
  {
    name: "a 500 on a valid query (any channelId)",
    check: "not_a_server_error",
    fault: {
      request: (url) =>
        isSearch(url) && url.searchParams.has("channelId") ? { status: 500, headers: { "content-type": "application/json" }, body: "{}" } : undefined,
    },
  },
  {
    name: "a fire request that breaks the request schema answered 200",
    check: "negative_data_rejection",
    fault: {
      response: (url, response) => {
        if (url.pathname === firePath && response.status >= 400 && response.status < 500 && ![401, 404].includes(response.status)) {
          Object.assign(response, { status: 200, body: "", headers: {} });
        }
      },
    },
  },
  {
    name: "a duplicated item on every later page",
    check: "paging_walk",
    fault: {
      response: (url, response) => {
        const pageIndex = Number(url.searchParams.get("pageIndex") ?? "0");
        if (isSearch(url) && pageIndex > 0 && !url.searchParams.has("status") && !url.searchParams.has("channelId"))
          editPage((page) => {
            const items = page["items"] as { id: string }[];
            if (items.length > 1) items[items.length - 1] = { ...items[items.length - 1]!, id: "conversation-000" };
          })(url, response);
      },
    },
  },
];

const run = (baseUrl: string): Promise<ConformanceReport> =>
  runConformance({ baseUrl, token: "sandbox-token", seed: 9, examples: 30, rate: 0, agentStageId: fixtureBot, allowFire: true, ...fixtureConversation, exportPath: sandboxExportPath });
const failing = (report: ConformanceReport): string[] => report.checks.filter((check) => check.failed > 0).map((check) => check.name);

describe("a proxy in front of the sandbox, breaking one thing at a time", () => {
  it("the unbroken proxy passes every check", async () => {
    const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch });
    try {
      expect(failing(await run(proxy.url))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it.each(faults)("$name is caught by $check and by no other check", async ({ fault, check }) => {
    const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, fault);
    try {
      const report = await run(proxy.url);
      expect(failing(report)).toEqual([check]);
      expect(report.checks.find((result) => result.name === check)!.failures[0]!.curl).toContain(proxy.url);
    } finally {
      await proxy.close();
    }
  });
});
