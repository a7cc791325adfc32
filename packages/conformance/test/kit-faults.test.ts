import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { describe, expect, it } from "vitest";
import { type CheckName, type ConformanceOptions, type ConformanceReport, probeFamilies, runConformance } from "../src/index.ts";
import { editItems, familyFaults, firing, isFire, isSearch, isTriggerList, laxVariable } from "./support/family-faults.ts";
import { editJson, type Fault, startFaultyProxy } from "./support/faulty-proxy.ts";
import { fixtureBot, fixtureConversation, kitRequestTimeoutMs, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();
const seeds = Array.from({ length: 20 }, (_, index) => index + 1);
/** The seeds each family's fault runs under: fewer than the server faults' twenty, as there are many families. */
const familySeeds = [1, 2, 3, 4, 5];
/** A hang guard for a case of twenty runs side by side on a loaded machine, not a bound on speed. */
const caseTimeoutMs = heavyTestTimeoutMs * 2;
const failing = (report: ConformanceReport): string[] => report.checks.filter((check) => check.failed > 0).map((check) => check.name);
/** The seed and the first failure of each failing check, for an assertion's message. */
const why = (report: ConformanceReport): string =>
  `seed ${report.seed}: ${JSON.stringify(report.checks.filter((check) => check.failed > 0).map((check) => [check.name, check.failures[0]?.message, check.failures[0]?.sent, check.failures[0]?.received.slice(0, 120)]))}`;
const finding = (report: ConformanceReport, name: string): unknown => report.findings.find((entry) => entry.name === name)?.value;

/** One fault per class of what server teams ship, the check meant to catch it, and the checks that may rightly catch it too. */
const faults: ReadonlyArray<{ name: string; check: CheckName; related?: CheckName[]; fault: Fault; options?: Partial<ConformanceOptions>; warning?: RegExp }> =
  [
    {
      name: "a DateTime taking a date alone or a time without an offset",
      check: "payload_validation_rejection",
      fault: laxVariable("deliveryDate", (value) => typeof value === "string" && /^\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d)?$/.test(value)),
      options: firing,
    },
    {
      name: "a File taking a name without an extension",
      check: "payload_validation_rejection",
      fault: laxVariable("invoice", (value) => typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string"),
      options: firing,
    },
    {
      name: "an external conversation id matched by its session whatever the suffix",
      check: "unknown_conversation_not_found",
      fault: {
        request: (url, _headers, upstream, body) => {
          const request = JSON.parse(body || "{}") as { externalConversationId?: unknown };
          const id = request.externalConversationId;
          if (!isFire(url) || typeof id !== "string" || !id.includes("|") || id.endsWith("|livechat")) return undefined;
          return upstream(url, JSON.stringify({ ...request, externalConversationId: `${id.split("|")[0]}|livechat` }));
        },
      },
      options: firing,
    },
    {
      name: "the token compared without letter case",
      check: "ignored_auth",
      fault: { request: (_url, headers) => void (headers.get("x-token")?.toLowerCase() === "sandbox-token" && headers.set("x-token", "sandbox-token")) },
    },
    {
      name: "white space removed from the token",
      check: "ignored_auth",
      fault: { request: (_url, headers) => void (headers.has("x-token") && headers.set("x-token", headers.get("x-token")!.replace(/\s+/g, ""))) },
    },
    {
      name: "the token not checked on later pages of a filtered search",
      check: "ignored_auth",
      fault: {
        request: (url, headers) =>
          void (
            isSearch(url) &&
            Number(url.searchParams.get("pageIndex") ?? 0) > 0 &&
            url.searchParams.has("status") &&
            headers.set("x-token", "sandbox-token")
          ),
      },
    },
    {
      name: "a later page of a search with two filters repeating the first page",
      check: "filter_combination",
      fault: {
        request: async (url, _headers, upstream) => {
          const filters = ["status", "channelId", "startFromDate", "latestMessageToDate"].filter((name) => url.searchParams.has(name));
          if (!isSearch(url) || filters.length < 2 || Number(url.searchParams.get("pageIndex") ?? 0) === 0) return undefined;
          const answer = await upstream(url);
          const first = new URL(url);
          first.searchParams.set("pageIndex", "0");
          const firstItems = (JSON.parse((await upstream(first)).body) as { items: unknown[] }).items;
          if (answer.status === 200)
            editJson(answer, (page) => ({ ...(page as object), items: firstItems.slice(0, (page as { items: unknown[] }).items.length) }));
          return answer;
        },
      },
    },
    { name: "agentStageId ignored", check: "bot_filter_match", fault: { request: (url) => void (isSearch(url) && url.searchParams.delete("agentStageId")) } },
    {
      name: "startedOn written with a space instead of T",
      check: "response_schema_conformance",
      fault: editItems((item) => void (item["startedOn"] = String(item["startedOn"]).replace("T", " "))),
    },
    {
      name: "hasMore always false (the kit's look-up of a conversation on a later page)",
      check: "envelope_math",
      related: ["paging_walk", "filter_combination", "filter_inclusion"],
      fault: {
        response: (url, response) => void (isSearch(url) && response.status === 200 && editJson(response, (page) => ({ ...(page as object), hasMore: false }))),
      },
      options: { ...firing, conversationId: "conversation-050" },
      // The run goes on (no usage error, exit 2): the look-up that paging broke is a warning, the paging a failure.
      warning: /conversation-050.*the server's paging ended after 20 of the 57 conversations/,
    },
  ];

/** Runs every seed side by side against one proxy: read-only unless the options allow firing. */
async function runSeeds(fault: Fault, options: Partial<ConformanceOptions> = {}, runSeeds = seeds): Promise<ConformanceReport[]> {
  const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, fault);
  try {
    return await Promise.all(
      runSeeds.map((seed) =>
        runConformance({
          baseUrl: proxy.url,
          token: "sandbox-token",
          seed,
          examples: 4,
          maxRequests: 800,
          rate: 0,
          timeoutMs: kitRequestTimeoutMs,
          agentStageId: fixtureBot,
          ...fixtureConversation,
          ...options,
        }),
      ),
    );
  } finally {
    await proxy.close();
  }
}

describe("what server teams ship, one fault at a time, across 20 seeds", () => {
  it("the unbroken proxy passes every check under every seed", { timeout: caseTimeoutMs }, async () => {
    for (const report of await runSeeds({}, firing)) expect(failing(report), why(report)).toEqual([]);
  });

  it.each(faults)(
    "$name is caught by $check and by no unrelated check",
    { timeout: caseTimeoutMs },
    async ({ fault, check, related = [], options, warning }) => {
      for (const report of await runSeeds(fault, options)) {
        const failed = failing(report);
        expect(failed, `seed ${report.seed}`).toContain(check);
        expect(
          failed.filter((name) => name !== check && !(related as string[]).includes(name)),
          why(report),
        ).toEqual([]);
        expect(report.checks.find((result) => result.name === check)!.failures[0]!.rule).not.toBe("");
        if (warning) expect(report.warnings.join("\n")).toMatch(warning);
      }
    },
  );
});

/** Points the seed leaves open, answered another way than the sandbox does: a finding each, never a failure. */
const openPoints: ReadonlyArray<{ name: string; fault: Fault | (() => Fault); finding: string; value: unknown; options?: Partial<ConformanceOptions> }> = [
  { name: "HEAD answered as GET and OPTIONS refused (the sandbox's own answers)", fault: {}, finding: "head_and_options", value: { HEAD: 200, OPTIONS: 405 } },
  {
    name: "an unlisted variable rejected with the 500 (the sandbox's own answer)",
    fault: {},
    finding: "unlisted_variable",
    value: "rejected",
    options: firing,
  },
  {
    name: "HEAD refused and OPTIONS answered with 204",
    fault: {
      request: (url, _headers, _upstream, _body, method) =>
        isSearch(url) && method === "HEAD"
          ? { status: 405, headers: { allow: "GET" }, body: "" }
          : isSearch(url) && method === "OPTIONS"
            ? { status: 204, headers: { allow: "GET" }, body: "" }
            : undefined,
    },
    finding: "head_and_options",
    value: { HEAD: 405, OPTIONS: 204 },
  },
  {
    name: "an unlisted variable ignored",
    fault: {
      request: (url, _headers, upstream, body) => {
        const request = JSON.parse(body || "{}") as { externalEventPayload?: Record<string, unknown> };
        if (
          !isFire(url) ||
          typeof request.externalEventPayload !== "object" ||
          request.externalEventPayload === null ||
          !("conformanceUnlisted" in request.externalEventPayload)
        )
          return undefined;
        delete request.externalEventPayload["conformanceUnlisted"];
        return upstream(url, JSON.stringify(request));
      },
    },
    finding: "unlisted_variable",
    value: "ignored",
    options: firing,
  },
  {
    name: "latestMessageOn without an offset",
    fault: editItems((item) => void (item["latestMessageOn"] = String(item["latestMessageOn"]).replace(/(Z|[+-]\d\d:\d\d)$/, ""))),
    finding: "date_time_offsets",
    value: expect.objectContaining({ latestMessageOn: expect.objectContaining({ withOffset: 0 }) }),
  },
  {
    name: "the trigger list as one descriptor",
    fault: {
      response: (url, response) => void (isTriggerList(url) && response.status === 200 && editJson(response, (triggers) => (triggers as unknown[])[0])),
    },
    finding: "trigger_list_shape",
    value: "single",
  },
  {
    name: "the trigger list as a map keyed by externalEventId",
    fault: {
      response: (url, response) =>
        void (
          isTriggerList(url) &&
          response.status === 200 &&
          editJson(response, (triggers) => Object.fromEntries((triggers as { externalEventId: string }[]).map((trigger) => [trigger.externalEventId, trigger])))
        ),
    },
    finding: "trigger_list_shape",
    value: "map",
    options: firing,
  },
  {
    name: "an empty result counted as one empty page",
    fault: {
      response: (url, response) =>
        void (
          isSearch(url) &&
          response.status === 200 &&
          editJson(response, (page) => ((page as { totalItemCount: number }).totalItemCount === 0 ? { ...(page as object), totalPageCount: 1 } : page))
        ),
    },
    finding: "empty_result_counts",
    value: { totalPageCount: 1, fromItemInclusive: 0, toItemExclusive: 0 },
  },
  {
    name: "an empty result counted as no page (the sandbox's own answer)",
    fault: {},
    finding: "empty_result_counts",
    value: { totalPageCount: 0, fromItemInclusive: 0, toItemExclusive: 0 },
  },
  {
    name: "the trigger list as an array (the sandbox's own answer)",
    fault: {},
    finding: "trigger_list_shape",
    value: "array",
  },
  {
    name: "the trigger list wrapped in an object",
    fault: { response: (url, response) => void (isTriggerList(url) && response.status === 200 && editJson(response, (triggers) => ({ triggers }))) },
    finding: "trigger_list_shape",
    value: "wrapped",
    options: firing,
  },
  {
    name: "a rate limit of 20 requests a second, answered 429 with Retry-After",
    // One limiter per run (a proxy per seed): a run is limited by its own pace.
    fault: () => {
      const recent: number[] = [];
      return {
        request: () => {
          const now = Date.now();
          // A second's window: any machine sends its first 20 requests within it, so the limit is always met.
          while (recent.length > 0 && recent[0]! < now - 1000) recent.shift();
          if (recent.length >= 20) return { status: 429, headers: { "retry-after": "1", "content-type": "application/json" }, body: "{}" };
          recent.push(now);
          return undefined;
        },
      };
    },
    finding: "rate_limit",
    value: { status: 429, retryAfterSeconds: 1 },
    options: { allowFire: false, maxRequests: 120 },
  },
  {
    name: "a 503 with Retry-After once, as a server shedding load answers",
    fault: () => {
      let requests = 0;
      return {
        request: () => (++requests === 30 ? { status: 503, headers: { "retry-after": "1", "content-type": "application/json" }, body: "{}" } : undefined),
      };
    },
    finding: "rate_limit",
    value: { status: 503, retryAfterSeconds: 1 },
    options: { allowFire: false, maxRequests: 120 },
  },
];

describe("open points answered either way, across 20 seeds: a finding, never a failure", () => {
  it.each(openPoints)("$name", { timeout: caseTimeoutMs }, async ({ fault, finding: name, value, options }) => {
    const reports =
      typeof fault === "function"
        ? await Promise.all(
            seeds.map(async (seed) => {
              const proxy = await startFaultyProxy({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, fault());
              try {
                return await runConformance({
                  baseUrl: proxy.url,
                  token: "sandbox-token",
                  seed,
                  examples: 6,
                  rate: 0,
                  timeoutMs: kitRequestTimeoutMs,
                  agentStageId: fixtureBot,
                  ...fixtureConversation,
                  ...options,
                });
              } finally {
                await proxy.close();
              }
            }),
          )
        : await runSeeds(fault, options);
    for (const report of reports) {
      expect(failing(report), why(report)).toEqual([]);
      expect(finding(report, name), `seed ${report.seed}`).toEqual(value);
    }
  });
});

describe("the rule catalog: one planted fault per probe family, caught by its family and by no unrelated check", () => {
  // The family's own checks, the check the fault is meant for, and those that may rightly catch it too.
  const planted = probeFamilies.map((family) => ({ family: family.name, own: family.checks as readonly string[], ...familyFaults[family.name] }));

  it.each(planted)("$family: $name", { timeout: caseTimeoutMs }, async ({ family, own, check, related = [], fault, options }) => {
    for (const report of await runSeeds(fault, options, familySeeds)) {
      const failed = failing(report);
      expect(failed, `seed ${report.seed}`).toContain(check);
      expect(
        failed.filter((name) => name !== check && !own.includes(name) && !(related as readonly string[]).includes(name)),
        why(report),
      ).toEqual([]);
      // The per-rule table says so: every rule this family tests failed, and the family with it.
      const rules = report.rules.filter((rule) => rule.families.some((each) => each.name === family));
      expect(rules.length).toBeGreaterThan(0);
      for (const rule of rules) {
        expect(rule.families.find((each) => each.name === family)!.status, `${rule.id}, seed ${report.seed}`).toBe("failed");
        expect(rule.verdict).toBe("failed");
      }
    }
  });
});
