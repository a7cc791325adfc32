import { beforeAll, describe, expect, it } from "vitest";
import { loadDescription } from "../src/description.ts";
import { type CheckName, type ConformanceReport, runConformance } from "../src/index.ts";
import { editJson, type Fault, startFaultyProxy } from "./support/faulty-proxy.ts";
import { exampleBot, usePrism } from "./support/prism.ts";

const prism = usePrism();
const description = loadDescription();
const searchPath = description.operations.get("searchConversations")!.path;
const exportPath = "/conformance-test/export/{conversationId}";
const exportExample = (description.resolve("#/components/examples/ConversationExportFull") as { value: Record<string, unknown> }).value;

/**
 * A proxy that also serves a conversation export (Prism has no route for it, the service names none):
 * the description's full export example under the asked id, so the export check has something to read.
 */
const withExport = (fault: Fault): Fault => ({
  request: (url, headers, upstream, body, method) => {
    const match = /^\/conformance-test\/export\/([^/]+)$/.exec(url.pathname);
    if (match) {
      const body = { ...exportExample, id: decodeURIComponent(match[1]!) };
      const response = { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
      fault.response?.(url, response);
      return response;
    }
    return fault.request?.(url, headers, upstream, body, method);
  },
  ...(fault.response ? { response: fault.response } : {}),
});

const isSearch = (url: URL): boolean => url.pathname === searchPath;
const jsonAnswer = (status: number, body: unknown) => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** Each fault, and the one check that must catch it. */
const faults: ReadonlyArray<{ name: string; check: CheckName; fault: Fault }> = [
  {
    name: "a 500 on a valid query (any channelId)",
    check: "not_a_server_error",
    fault: { request: (url) => (isSearch(url) && url.searchParams.has("channelId") ? jsonAnswer(500, { message: "boom" }) : undefined) },
  },
  {
    name: "an undocumented status for the trigger list (203)",
    check: "status_code_conformance",
    fault: { response: (url, response) => void (url.pathname.includes("/external/events/") && response.status === 200 && (response.status = 203)) },
  },
  {
    name: "a wrong content type on search (text/plain)",
    check: "content_type_conformance",
    fault: { response: (url, response) => void (isSearch(url) && (response.headers["content-type"] = "text/plain")) },
  },
  {
    name: "a string where the description says integer (messagesCount)",
    check: "response_schema_conformance",
    fault: {
      response: (url, response) => {
        if (isSearch(url) && response.status === 200)
          editJson(response, (page) => ({ ...(page as object), items: (page as { items: object[] }).items.map((item) => ({ ...item, messagesCount: "12" })) }));
      },
    },
  },
  {
    name: "an extra property in the export",
    check: "response_schema_conformance",
    fault: {
      response: (url, response) =>
        void (url.pathname.startsWith("/conformance-test/export/") && editJson(response, (body) => ({ ...(body as object), extra: true }))),
    },
  },
  {
    name: "a valid status refused (Closed is a 400)",
    check: "positive_data_acceptance",
    fault: { request: (url) => (isSearch(url) && url.searchParams.get("status") === "Closed" ? jsonAnswer(400, { message: "bad status" }) : undefined) },
  },
];

const run = (baseUrl: string): Promise<ConformanceReport> =>
  runConformance({ baseUrl, token: "fault-token", seed: 11, examples: 40, agentStageId: exampleBot, exportPath, rate: 0 });
const failing = (report: ConformanceReport): Set<string> => new Set(report.checks.filter((check) => check.failed > 0).map((check) => check.name));

describe("faults put in front of Prism, one at a time", () => {
  let baseline: Set<string>;
  beforeAll(async () => {
    const proxy = await startFaultyProxy({ baseUrl: prism().url }, withExport({}));
    try {
      baseline = failing(await run(proxy.url));
    } finally {
      await proxy.close();
    }
  });

  it("the unbroken proxy fails only on Prism's own stateless gaps", () => {
    expect([...baseline].sort()).toEqual([
      "bot_filter_match",
      "envelope_math",
      "filter_match",
      "ignored_auth",
      // The test's export route serves the description's one example export for every id: the search's other summaries disagree with it.
      "operation_consistency",
      "search_model",
      "unknown_bot_not_found",
      "unsupported_method",
    ]);
  });

  it.each(faults)("$name is caught by $check and by no other check", async ({ fault, check }) => {
    const proxy = await startFaultyProxy({ baseUrl: prism().url }, withExport(fault));
    try {
      const report = await run(proxy.url);
      const added = [...failing(report)].filter((name) => !baseline.has(name));
      expect(added).toEqual([check]);
      const failure = report.checks.find((result) => result.name === check)!.failures[0]!;
      expect(failure.curl).toContain(proxy.url);
    } finally {
      await proxy.close();
    }
  });

  it("a missing token let through is caught by ignored_auth (Prism already lets a wrong one through)", async () => {
    const proxy = await startFaultyProxy(
      { baseUrl: prism().url },
      withExport({ request: (_, headers) => void (headers.has("x-token") || headers.set("x-token", "let-in")) }),
    );
    try {
      const report = await run(proxy.url);
      expect([...failing(report)].filter((name) => !baseline.has(name))).toEqual([]);
      const messages = report.checks.find((result) => result.name === "ignored_auth")!.failures.map((failure) => failure.message);
      expect(messages.some((message) => message.includes("without X-Token; got 200"))).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
