import { describe, expect, it, vi } from "vitest";
import { loadDescription } from "../src/description.ts";
import { type CheckName, type ConformanceOptions, type ConformanceReport, runConformance } from "../src/index.ts";
import { editJson, type Fault, faultyFetch, faultyFetchBaseUrl, startFaultyProxy } from "./support/faulty-proxy.ts";
import { fixtureBot, fixtureConversation, sandboxExportPath, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();
const description = loadDescription();
const searchPath = description.operations.get("searchConversations")!.path;
const statuses = description.resolve("#/components/schemas/ConversationStatus")["enum"] as string[];
const isSearch = (url: URL): boolean => url.pathname === searchPath;
const firePath = description.operations.get("fireExternalEvent")!.path;
const editPage =
  (edit: (page: Record<string, unknown>) => void): NonNullable<Fault["response"]> =>
  (url, response) => {
    if (isSearch(url) && response.status === 200)
      editJson(response, (page) => {
        edit(page as Record<string, unknown>);
        return page;
      });
  };

/** Each fault put between the kit and a correct server, and the one check meant to catch it. */
const faults: ReadonlyArray<{ name: string; check: CheckName; related?: CheckName[]; fault: Fault }> = [
  {
    name: "paging math (totalPageCount one too many)",
    check: "envelope_math",
    related: ["search_model"],
    fault: { response: editPage((page) => void (page["totalPageCount"] = Number(page["totalPageCount"]) + 1)) },
  },
  {
    name: "a filter ignored (a valid status is checked, then dropped)",
    check: "filter_match",
    related: ["search_model"],
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
    // A payload that is not an object breaks the request schema too: its own check sees it answered 200.
    related: ["payload_shape_rejection"],
    fault: {
      response: (url, response) => {
        if (url.pathname === firePath && response.status >= 400 && response.status < 500 && ![401, 404, 405].includes(response.status)) {
          Object.assign(response, { status: 200, body: "", headers: {} });
        }
      },
    },
  },
  {
    name: "a duplicated item on every later page",
    check: "paging_walk",
    // The combined-filter walk reads later pages too, and finds the duplicated conversation where it does not belong.
    related: ["filter_combination"],
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
  runConformance({
    baseUrl,
    token: "sandbox-token",
    seed: 9,
    examples: 30,
    rate: 0,
    agentStageId: fixtureBot,
    allowFire: true,
    ...fixtureConversation,
    exportPath: sandboxExportPath,
  });
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

  it.each(faults)("$name is caught by $check and by no other check", async ({ fault, check, related = [] }) => {
    const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, fault);
    try {
      const report = await run(proxy.url);
      expect(
        failing(report),
        JSON.stringify(
          report.checks.filter((result) => result.failed > 0).map((result) => [result.name, result.failures[0]?.message, result.failures[0]?.sent]),
        ),
      ).toEqual([check, ...related]);
      expect(report.checks.find((result) => result.name === check)!.failures[0]!.curl).toContain(proxy.url);
    } finally {
      await proxy.close();
    }
  });
});

/** The sandbox's default page size, for the proxy that pages by itself. */
const defaultPageSize = 20;

/**
 * A search that compares the date filters as text, as a server storing dates as strings would: the
 * proxy asks the sandbox for every conversation of the other filters, keeps those whose date string
 * sorts inside the bounds' strings, and pages them itself.
 */
const textDates: Fault = {
  request: async (url, _, upstream, _body, method) => {
    const dates = [...url.searchParams.keys()].filter((name) => /Date$/.test(name));
    // A HEAD has no page to compute: the server's own answer.
    if (!isSearch(url) || method !== "GET" || dates.length === 0 || dates.some((name) => !Number.isFinite(Date.parse(url.searchParams.get(name)!))))
      return undefined;
    const pageSize = Number(url.searchParams.get("pageSize") ?? defaultPageSize);
    const pageIndex = Number(url.searchParams.get("pageIndex") ?? 0);
    if (!Number.isInteger(pageSize) || pageSize < 1 || !Number.isInteger(pageIndex) || pageIndex < 0) return undefined;
    const all = new URL(url);
    for (const name of [...dates, "pageSize", "pageIndex"]) all.searchParams.delete(name);
    all.searchParams.set("pageSize", "1000");
    const answer = await upstream(all);
    if (answer.status !== 200) return answer;
    const field = (name: string): "startedOn" | "latestMessageOn" => (name.startsWith("start") ? "startedOn" : "latestMessageOn");
    const items = (JSON.parse(answer.body) as { items: Record<string, string>[] }).items.filter((item) =>
      dates.every((name) =>
        name.endsWith("FromDate") ? item[field(name)]! >= url.searchParams.get(name)! : item[field(name)]! <= url.searchParams.get(name)!,
      ),
    );
    const from = Math.min(pageIndex * pageSize, items.length);
    const to = Math.min(from + pageSize, items.length);
    const totalPageCount = Math.ceil(items.length / pageSize);
    const page = {
      items: items.slice(from, to),
      hasMore: pageIndex + 1 < totalPageCount,
      pageIndex,
      pageSize,
      totalItemCount: items.length,
      totalPageCount,
      fromItemInclusive: from,
      toItemExclusive: to,
    };
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(page) };
  },
};

/** The four faults an earlier kit missed, each caught by its check and no unrelated one, whatever the seed. */
const misses: ReadonlyArray<{ name: string; check: CheckName; related?: CheckName[]; fault: Fault; options?: Partial<ConformanceOptions> }> = [
  {
    name: "every page cut to 50 items when more are asked for",
    check: "envelope_math",
    fault: { response: editPage((page) => void (page["items"] = (page["items"] as unknown[]).slice(0, 50))) },
  },

  { name: "date filters compared as text", check: "filter_match", related: ["filter_inclusion", "search_model"], fault: textDates },
  {
    name: "latestMessageToDate ignored",
    check: "filter_match",
    related: ["search_model"],
    // Validated, then ignored: a value that is no date is still refused.
    fault: {
      request: (url) =>
        void (
          isSearch(url) &&
          Number.isFinite(Date.parse(url.searchParams.get("latestMessageToDate") ?? "")) &&
          url.searchParams.delete("latestMessageToDate")
        ),
    },
  },
];

const seeds = Array.from({ length: 20 }, (_, index) => index + 1);

describe("a slow server fails fast, across 20 seeds", () => {
  it("a search answered in 3 s is caught by max_response_time, and no search is sent after the first slow one", async () => {
    // The clock the kit times answers with (performance.now) is faked and moves only when the proxy takes a search:
    // 3 s pass for each search and none for any other request, so the verdicts never depend on the machine's speed.
    // The seeds run one after another: a search's 3 s must not fall inside another run's request.
    vi.useFakeTimers({ toFake: ["performance"] });
    let searches = 0;
    const slowSearch: Fault = {
      request: (url) => {
        if (isSearch(url)) {
          searches++;
          vi.advanceTimersByTime(3000);
        }
        return undefined;
      },
    };
    const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, slowSearch);
    try {
      for (const seed of seeds) {
        // No --max-time: what bounds the run is that the slow operation is not sent again.
        const report = await runConformance({ baseUrl: proxy.url, token: "sandbox-token", seed, rate: 0, agentStageId: fixtureBot, maxResponseTimeMs: 1000 });
        expect(failing(report), `seed ${seed}`).toEqual(["max_response_time"]);
        expect(report.warnings.join("\n")).toContain("searchConversations answered after 3000 ms, past --max-response-time: it was not sent again");
        expect(report.stopped).toBeUndefined();
      }
      expect(searches).toBe(seeds.length);
    } finally {
      vi.useRealTimers();
      await proxy.close();
    }
  });
});

describe("the faults an earlier kit missed, across 20 seeds", () => {
  it.each(misses)("$name is caught by $check and by no unrelated check", async ({ fault, check, related = [], options = {} }) => {
    // The proxy in process (see `seedRunner`): twenty runs side by side, read-only with a small budget; the edge phase comes first, so it is always in.
    const fetch = faultyFetch({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, fault);
    const reports = await Promise.all(
      seeds.map((seed) =>
        runConformance({
          baseUrl: faultyFetchBaseUrl,
          fetch,
          token: "sandbox-token",
          seed,
          examples: 8,
          maxRequests: 200,
          rate: 0,
          agentStageId: fixtureBot,
          ...options,
        }),
      ),
    );
    for (const report of reports) {
      const failed = failing(report);
      expect(failed, `seed ${report.seed}`).toContain(check);
      expect(
        failed.filter((name) => name !== check && !(related as string[]).includes(name)),
        `seed ${report.seed}`,
      ).toEqual([]);
      const failure = report.checks.find((result) => result.name === check)!.failures[0]!;
      expect(failure.sent).toContain(faultyFetchBaseUrl);
      expect(failure.rule).not.toBe("");
    }
  });
});
