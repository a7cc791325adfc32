import { execFileSync } from "node:child_process";
import { parseRetryAfter } from "@bot-conversation/client";
import { searchFilters, searchPeriods } from "@bot-conversation/openapi";
import { describe, expect, it } from "vitest";
import type { Case, Exchange } from "../src/case.ts";
import { curlOf } from "../src/case.ts";
import { pastMaximum } from "../src/checks/data.ts";
import { bodyEncoding } from "../src/checks/encoding.ts";
import { notFound, payloadAcceptance, payloadRejection, payloadShapeRejection } from "../src/checks/fire.ts";
import { envelopeMath, filterMatch } from "../src/checks/index.ts";
import { unsupportedMethod } from "../src/checks/methods.ts";
import { acceptNegotiation } from "../src/checks/negotiation.ts";
import { botWithinAll, emptySearchPage, filterCombination, filterInclusion, findsNoConversation } from "../src/checks/oracles.ts";
import { pagingWalk } from "../src/checks/paging.ts";
import { noAnswer, notAServerError, responseSchemaConformance, statusCodeConformance } from "../src/checks/response.ts";
import { maxResponseTime } from "../src/checks/timing.ts";
import { notApplicable, notJudged } from "../src/checks/types.ts";
import { type Authentication, type Credential, credentialHeaders, credentials } from "../src/credentials.ts";
import { loadDescription } from "../src/description.ts";
import { familyResults } from "../src/families.ts";
import { filterPairs } from "../src/phases/filters.ts";
import { Results } from "../src/results.ts";

const description = loadDescription();

/** An exchange as the transport would record it, for the pure check functions. */
function exchange(operationId: string, status: number, json: unknown, query: Record<string, string> = {}): Exchange {
  const request: Case = { operationId, method: operationId === "fireExternalEvent" ? "POST" : "GET", path: "/", query, authentication: "token" };
  const text = json === undefined ? "" : JSON.stringify(json);
  return { case: request, status, headers: new Headers({ "content-type": "application/json" }), text, json, isJson: json !== undefined, elapsedMs: 1 };
}

const item = (id: string, startedOn = "2026-11-20T09:00:00Z") => ({ id, status: "Active", channelId: "directline", startedOn, latestMessageOn: startedOn });
const page = (fields: Record<string, unknown>, count: number) => ({
  items: Array.from({ length: count }, (_, index) => item(`c${index}`)),
  hasMore: false,
  pageIndex: 0,
  pageSize: 10,
  totalItemCount: count,
  totalPageCount: count === 0 ? 0 : 1,
  fromItemInclusive: 0,
  toItemExclusive: count,
  ...fields,
});

describe("envelope_math", () => {
  it.each([
    ["a full first page", 0, page({ hasMore: true, totalItemCount: 25, totalPageCount: 3, toItemExclusive: 10 }, 10), {}, undefined],
    [
      "the last page, counting from 1",
      1,
      page({ pageIndex: 3, totalItemCount: 25, totalPageCount: 3, fromItemInclusive: 20, toItemExclusive: 25 }, 5),
      { pageIndex: "3" },
      undefined,
    ],
    ["no match at all", 0, page({}, 0), {}, undefined],
    [
      "a page past the end, empty",
      0,
      page({ pageIndex: 7, totalItemCount: 5, totalPageCount: 1, fromItemInclusive: 5, toItemExclusive: 5 }, 0),
      { pageIndex: "7" },
      undefined,
    ],
    ["hasMore on the last page", 0, page({ hasMore: true }, 4), {}, "hasMore: expected false, got true"],
    [
      "a page count off by one",
      0,
      page({ totalItemCount: 25, totalPageCount: 4, hasMore: true, toItemExclusive: 10 }, 10),
      {},
      "totalPageCount (ceil(totalItemCount / pageSize)): expected 3, got 4",
    ],
    ["another page than asked", 0, page({}, 4), { pageIndex: "2" }, "pageIndex (as requested): expected 2, got 0"],
    [
      "items past the page size",
      0,
      page({ pageSize: 3, totalPageCount: 2, hasMore: true, toItemExclusive: 3 }, 4),
      {},
      "items: expected at most pageSize 3, got 4",
    ],
  ])("%s (first page %i)", (_, pageBase, body, query, problem) => {
    const result = envelopeMath(exchange("searchConversations", 200, body, query), { description, pageBase, decisions: {} });
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toContain(problem);
  });
});

describe("filter_match", () => {
  const body = { ...page({}, 0), items: [item("early", "2026-11-01T00:00:00Z"), item("late", "2026-11-30T00:00:00+03:00")] };
  it.each([
    [{ status: "Active" }, undefined],
    [{ status: "Closed" }, 'status "Active" is not "Closed"'],
    [{ startFromDate: "2026-11-01T00:00:00Z" }, undefined],
    [{ startFromDate: "2026-11-02T00:00:00Z" }, 'item "early": startedOn 2026-11-01T00:00:00Z is before'],
    [{ startToDate: "2026-11-29T21:00:00Z" }, undefined],
    [{ startToDate: "2026-11-29T20:59:59Z" }, 'item "late": startedOn'],
    [{ channelId: "platform" }, 'channelId "directline" is not "platform"'],
  ])("%j", (query, problem) => {
    const result = filterMatch(exchange("searchConversations", 200, body, query), { description, pageBase: 0, decisions: {} });
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toContain(problem);
  });
});

describe("filter_match reads the search filters' one table (searchFilters of @bot-conversation/openapi)", () => {
  // Every filter of the table on the summary, with an item that holds it and one that does not: the kit judges each with no entry of its own.
  const onSummary = searchFilters.filter((filter) => filter.matches !== "bot");
  it.each(onSummary)("$name ($how on $matches)", ({ name, matches, how }) => {
    const held = "2026-11-10T00:00:00Z";
    const value = how === "equal" ? "wanted" : held;
    const holding = { ...item("holds", held), [matches]: how === "equal" ? "wanted" : held };
    const breaking = { ...item("breaks", held), [matches]: how === "equal" ? "other" : how === "from" ? "2026-11-09T00:00:00Z" : "2026-11-11T00:00:00Z" };
    const judge = (items: unknown[]) =>
      filterMatch(exchange("searchConversations", 200, { ...page({}, 0), totalItemCount: items.length, items }, { [name]: value }), {
        description,
        pageBase: 0,
        decisions: {},
      });
    expect(judge([holding])).toBeUndefined();
    expect(judge([holding, breaking])).toContain(`item "breaks": ${matches}`);
  });
});

describe("filter_combination pairs the search filters' table (searchFilters), no filter named (issue 48, item 7e)", () => {
  it("the table's equality filters of a field with one another and each with a period's bound", () => {
    expect(filterPairs(searchFilters, searchPeriods)).toEqual([
      ["status", "channelId"],
      ["status", "latestMessageToDate"],
      ["channelId", "startFromDate"],
    ]);
  });

  it("a filter added to the table is paired with no other edit", () => {
    const table = [...searchFilters, { name: "closingStatus", matches: "closingStatus", how: "equal" } as const];
    const pairs = filterPairs(table, searchPeriods);
    expect(pairs).toContainEqual(["status", "closingStatus"]);
    expect(pairs).toContainEqual(["channelId", "closingStatus"]);
    expect(pairs.filter((pair) => pair.includes("closingStatus"))).toHaveLength(3);
    // The bot filter is every oracle search's, never a member of a pair.
    expect(pairs.flat()).not.toContain("agentStageId");
  });
});

describe("not_a_server_error and status_code_conformance", () => {
  it.each([
    ["fireExternalEvent", 500, undefined, undefined],
    // The trigger list's 500 is in the seed's Errors table ("Internal server error; the body carries details").
    ["listExternalEventTriggers", 500, undefined, undefined],
    ["searchConversations", 500, "expected no server error; got 500", undefined],
    ["listExternalEventTriggers", 503, "expected no server error; got 503", "expected one of the documented statuses 200, 401, 404, 500, 4XX; got 503"],
    ["searchConversations", 418, undefined, undefined],
    ["fireExternalEvent", 302, undefined, "got 302"],
  ])("%s answering %i", (operationId, status, serverError, statusCode) => {
    const answer = exchange(operationId, status, { message: "x" });
    const context = { description, pageBase: 0, decisions: {} };
    expect(notAServerError(answer, context)).toBe(serverError);
    if (statusCode === undefined) expect(statusCodeConformance(answer, context)).toBeUndefined();
    else expect(statusCodeConformance(answer, context)).toContain(statusCode);
  });
});

describe("response_schema_conformance: each problem's JSON Schema keyword, as data (issue 48, item 7d)", () => {
  const context = { description, pageBase: 0, decisions: {} };
  const summary = {
    ...item("c0"),
    messagesCount: 1,
    members: [],
    channelData: null,
    latestMessageDirection: "Outbound",
    latestMessageText: "hi",
    closingStatus: null,
    closingReason: null,
  };

  it("a status spelled in lower case is an enum's problem at its pointer, a date sent as a number a type's", () => {
    const body = page({ items: [{ ...summary, status: "active", startedOn: 1763630102000 }] }, 1);
    const verdict = responseSchemaConformance(exchange("searchConversations", 200, body), context);
    expect(verdict).toMatchObject({
      problems: expect.arrayContaining([
        { pointer: "/items/0/status", keyword: "enum" },
        { pointer: "/items/0/startedOn", keyword: "type" },
      ]),
    });
    expect(typeof verdict === "object" && "failed" in verdict && verdict.failed).toContain("/items/0/status: expected one of Active, Closed, Operator");
  });

  it("the spelled-values family is judged on the failures with an enum's or a const's problem, whatever their words", () => {
    const results = new Results("http://server.test");
    const misspelt = exchange("searchConversations", 200, page({ items: [{ ...summary, status: "active" }] }, 1));
    const mistyped = exchange("searchConversations", 200, page({ items: [{ ...summary, messagesCount: "1" }] }, 1));
    results.record("response_schema_conformance", misspelt, responseSchemaConformance(misspelt, context));
    results.record("response_schema_conformance", mistyped, responseSchemaConformance(mistyped, context));
    const checks = results.finish(undefined);
    const failures = checks.find((check) => check.name === "response_schema_conformance")!.failures;
    expect(failures.map((failure) => failure.problems.map((problem) => problem.keyword))).toEqual([["enum"], ["type"]]);
    const families = familyResults(checks, new Map());
    expect(families.get("spelled-values")).toMatchObject({ status: "failed", failed: 1 });
    expect(families.get("response-schema")).toMatchObject({ status: "failed", failed: 2 });
  });
});

describe("not_a_server_error: a documented 500 carries details, as the seed says", () => {
  it.each(["listExternalEventTriggers", "fireExternalEvent"])("%s answering 500 with an empty body", (operationId) => {
    const answer = exchange(operationId, 500, undefined);
    expect(notAServerError(answer, { description, pageBase: 0, decisions: {} })).toBe(
      `expected the 500 the service documents for ${operationId} to carry details in its body; got an empty body`,
    );
  });
});

describe("curl reproductions", () => {
  it.each(Object.keys(credentials) as Authentication[])(
    "with the credential %s, the line carries $BOT_CONVERSATION_TOKEN, never the value, and bash writes what the kit sends",
    (authentication) => {
      const line = curlOf("http://127.0.0.1:1/base", {
        operationId: "searchConversations",
        method: "GET",
        path: "/api/v2/channels/conversations",
        query: { status: "Closed" },
        authentication,
      });
      expect(line).not.toContain("abc-secret-1");
      // curl replaced by a function that prints its arguments, one a line.
      const words = execFileSync("bash", ["-c", `curl() { printf '%s\\n' "$@"; }; ${line}`], {
        env: { BOT_CONVERSATION_TOKEN: "abc-secret-1", PATH: process.env["PATH"] },
      })
        .toString()
        .trim()
        .split("\n");
      // Every header the transport sends for this credential, as bash writes it (an empty X-Token is curl's "X-Token;").
      const sent = credentialHeaders(authentication, "abc-secret-1");
      const headerWords = words.filter((word, index) => words[index - 1] === "-H" && !/^Accept:/.test(word));
      expect(headerWords.map((word) => (word === "X-Token;" ? "x-token: " : word.replace(/^[^:]+/, (name) => name.toLowerCase())))).toEqual(
        sent.map(([name, value]) => `${name}: ${value}`),
      );
      const carrier = credentials[authentication] as Credential;
      expect(words.at(-1)).toBe(`http://127.0.0.1:1/base/api/v2/channels/conversations?status=Closed${carrier.query ? `&${carrier.query}=abc-secret-1` : ""}`);
    },
  );
});

describe("the checks added for real deployments", () => {
  const context = { description, pageBase: 0, decisions: {} };
  const withHeaders = (base: Exchange, headers: Record<string, string>, more: Partial<Case> = {}): Exchange => ({
    ...base,
    headers: new Headers(headers),
    case: { ...base.case, ...more },
  });

  it.each([
    [405, { allow: "GET, HEAD" }, undefined],
    [405, { allow: "get" }, undefined],
    [405, {}, "expected an Allow header with the 405 for DELETE; got none"],
    [405, { allow: "POST" }, "expected Allow to list GET; got Allow: POST"],
    // The seed lists each operation's method and says nothing of others: a 2xx is reported (undocumented_methods), never failed.
    [
      200,
      {},
      notJudged(
        "DELETE on a path that lists GET answered 200: the seed does not say how a method it does not list is answered (see the undocumented_methods finding)",
      ),
    ],
    [
      404,
      {},
      notJudged(
        "DELETE on a path that lists GET answered 404: the seed does not say how a method it does not list is answered (see the undocumented_methods finding)",
      ),
    ],
  ])("unsupported_method: %i with %j", (status, headers, verdict) => {
    const answer = withHeaders(exchange("DELETE /x", status, undefined), headers, { method: "DELETE", documentedMethods: ["GET"] });
    expect(unsupportedMethod(answer, context)).toEqual(verdict);
    expect(unsupportedMethod(exchange("searchConversations", 200, {}), context)).toBe(notApplicable);
  });

  it.each([
    [406, "text/html", "", undefined],
    [200, "application/json", "{}", undefined],
    [200, "text/html", "<p>hi</p>", "expected 406 or a documented media type (application/json) for Accept: text/html; got 200 with text/html"],
    [200, "text/plain", "hi", notJudged("answered in text/plain, neither asked for nor documented (content_type_conformance)")],
  ])("accept_negotiation: %i in %s", (status, type, text, verdict) => {
    const answer: Exchange = {
      ...exchange("searchConversations", status, undefined),
      headers: new Headers({ "content-type": type }),
      text,
      case: { ...exchange("searchConversations", status, undefined).case, accept: "text/html" },
    };
    expect(acceptNegotiation(answer, context)).toEqual(verdict);
  });

  it("max_response_time: opt-in, and quotes the bound and the time", () => {
    const slow = { ...exchange("searchConversations", 200, {}), elapsedMs: 1500.4 };
    expect(maxResponseTime(slow, context)).toBe(notApplicable);
    expect(maxResponseTime(slow, { ...context, maxResponseTimeMs: 2000 })).toBeUndefined();
    expect(maxResponseTime(slow, { ...context, maxResponseTimeMs: 1000 })).toBe(
      "expected a response within 1000 ms (--max-response-time); got one after 1500 ms",
    );
  });

  it("filter_match at a bound's exact instant: held unless the accepted decision says bounds are exclusive; another notation is the same instant", () => {
    const body = { ...page({}, 0), items: [item("edge", "2026-11-20T06:15:02.000Z")] };
    const query = { startFromDate: "2026-11-20T09:15:02.000+03:00" };
    expect(filterMatch(exchange("searchConversations", 200, body, query), context)).toBeUndefined();
    expect(filterMatch(exchange("searchConversations", 200, body, query), { ...context, decisions: { dateRangeBounds: "exclusive" } })).toContain(
      "which the accepted decision dateRangeBounds: exclusive leaves out",
    );
    expect(filterMatch(exchange("searchConversations", 200, body, { startFromDate: "2026-11-20T09:15:02.001+03:00" }), context)).toContain(
      'item "edge": startedOn 2026-11-20T06:15:02.000Z is before',
    );
  });
});

describe("Retry-After and body_encoding", () => {
  it("reads Retry-After by the client's one function (parseRetryAfter, with no bound): delay-seconds or an IMF-fixdate, and nothing else", () => {
    const now = Date.parse("2026-11-20T09:00:00Z");
    expect(parseRetryAfter("3", Infinity, now)).toBe(3000);
    expect(parseRetryAfter("120", Infinity, now)).toBe(120_000);
    expect(parseRetryAfter("Fri, 20 Nov 2026 09:00:05 GMT", Infinity, now)).toBe(5000);
    expect(parseRetryAfter("Fri, 20 Nov 2026 08:00:00 GMT", Infinity, now)).toBe(0);
    expect(parseRetryAfter("soon", Infinity, now)).toBeUndefined();
    expect(parseRetryAfter("1.5", Infinity, now)).toBeUndefined();
    expect(parseRetryAfter(null, Infinity, now)).toBeUndefined();
  });

  it.each([
    ["application/json", false, undefined],
    ["application/json; charset=utf-8", false, undefined],
    ["application/json; charset=UTF8", false, undefined],
    ["application/json; charset=iso-8859-1", false, "expected charset=utf-8 (or none) in Content-Type; got charset=iso-8859-1"],
    ["application/json", true, "expected a UTF-8 body; got bytes that are not valid UTF-8"],
  ] as const)("Content-Type %s, invalid UTF-8 %s", (contentType, invalidUtf8, verdict) => {
    const base = exchange("searchConversations", 200, { items: [] });
    expect(
      bodyEncoding(
        { ...base, headers: new Headers({ "content-type": contentType }), ...(invalidUtf8 ? { invalidUtf8 } : {}) },
        { description, pageBase: 0, decisions: {} },
      ),
    ).toBe(verdict);
  });
});

/** A search page of the given items (`ids`), with its envelope's totals. */
const pageOfIds = (ids: string[], fields: Record<string, unknown> = {}): Exchange =>
  exchange("searchConversations", 200, {
    ...page({ totalItemCount: ids.length }, 0),
    items: ids.map((id) => item(id)),
    toItemExclusive: ids.length,
    ...fields,
  });

describe("the checks that judge what a phase gathered: each a function of the exchanges", () => {
  const context = { description, pageBase: 0, decisions: {} };

  it("paging_walk: the walk's distinct conversations against totalItemCount, duplicates, and pages past totalPageCount", () => {
    const first = pageOfIds(["a", "b"], { totalItemCount: 4, totalPageCount: 2, hasMore: true });
    expect(pagingWalk([first, pageOfIds(["c", "d"], { totalItemCount: 4, totalPageCount: 2 })])).toBeUndefined();
    expect(pagingWalk([first, pageOfIds(["b", "c"], { totalItemCount: 4, totalPageCount: 2 })])).toBe(
      'expected the walk to yield totalItemCount distinct conversations; got 1 duplicate items (first "b"); 3 distinct conversations over 2 pages, but totalItemCount is 4',
    );
    expect(pagingWalk([first, pageOfIds(["c"]), pageOfIds(["d"])])).toContain("hasMore still true after 3 pages, beyond totalPageCount 2");
    expect(pagingWalk([first, exchange("searchConversations", 500, { title: "boom" })])).toBe(notApplicable);
  });

  it("filter_inclusion: the item on the page holds; a shorter page than the total is not judged; missing fails quoting the period", () => {
    const known = item("c-7");
    const query = { startFromDate: "2026-11-20T08:59:59.999Z", startToDate: "2026-11-20T09:00:00.001Z" };
    expect(filterInclusion(known, "startedOn", query)(pageOfIds(["c-7"]), context)).toBeUndefined();
    expect(filterInclusion(known, "startedOn", query)(pageOfIds(["c-1"], { totalItemCount: 5 }), context)).toEqual(
      notJudged("the conversation may be on a later page of the period's results"),
    );
    expect(filterInclusion(known, "startedOn", query)(pageOfIds(["c-1"]), context)).toBe(
      'expected conversation "c-7" (startedOn 2026-11-20T09:00:00Z) among the results of startFromDate=2026-11-20T08:59:59.999Z&startToDate=2026-11-20T09:00:00.001Z; got 1 conversations without it',
    );
  });

  it("filter_combination: the pair finds what both find alone, nothing more, nothing less", () => {
    const left = [pageOfIds(["a", "b", "c"])];
    const right = [pageOfIds(["b", "c", "d"])];
    expect(filterCombination("status=Active and channelId=directline", left, right, [pageOfIds(["b"]), pageOfIds(["c"])])).toBeUndefined();
    expect(filterCombination("status=Active and channelId=directline", left, right, [pageOfIds(["a", "b"])])).toBe(
      'expected status=Active and channelId=directline together to find the 2 conversations each finds alone; got 2 over 1 pages, 1 not found by both alone ("a"), 1 missing ("c")',
    );
  });

  it("bot_filter_match and empty_search_page", () => {
    expect(findsNoConversation("an unknown agentStageId")(pageOfIds([]), context)).toBeUndefined();
    expect(findsNoConversation("an unknown agentStageId")(pageOfIds(["x"]), context)).toBe(
      "expected no conversation for an unknown agentStageId; got totalItemCount 1 with 1 items",
    );
    expect(findsNoConversation("an unknown agentStageId")(exchange("searchConversations", 404, { title: "no" }), context)).toBe(notApplicable);
    expect(botWithinAll(pageOfIds(["a"]), pageOfIds(["a", "b"]))).toBeUndefined();
    expect(botWithinAll(pageOfIds(["a", "b"]), pageOfIds(["a"]))).toBe(
      "expected the bot's 2 conversations to be among all 1; got more for one bot than for all",
    );
    expect(emptySearchPage(pageOfIds([]), context)).toBeUndefined();
    expect(emptySearchPage(exchange("searchConversations", 400, { title: "bad" }), context)).toBe(
      "expected 200 with an empty page for a search that matches nothing; got 400",
    );
    expect(emptySearchPage(exchange("searchConversations", 503, undefined), context)).toBe(notApplicable);
  });

  it("the not-found and payload checks, a request that got no answer, and a page size past the accepted maximum", () => {
    expect(noAnswer("connection refused")(exchange("searchConversations", 0, undefined), context)).toBe("expected a response; got none (connection refused)");
    expect(notFound("an unknown agentStageId")(exchange("listExternalEventTriggers", 404, { title: "no" }), context)).toBeUndefined();
    expect(notFound("an unknown agentStageId")(exchange("listExternalEventTriggers", 200, []), context)).toBe(
      "expected 404 for an unknown agentStageId; got 200",
    );
    expect(payloadRejection("amount (Number) = true")(exchange("fireExternalEvent", 500, { detail: "amount" }), context)).toBeUndefined();
    expect(payloadRejection("amount (Number) = true")(exchange("fireExternalEvent", 500, undefined), context)).toBe(
      "expected the 500 for amount (Number) = true to carry details; got an empty body",
    );
    expect(payloadAcceptance("amount (Number) = 1")(exchange("fireExternalEvent", 200, undefined), context)).toBeUndefined();
    expect(payloadAcceptance("amount (Number) = 1")(exchange("fireExternalEvent", 200, {}), context)).toBe("expected an empty body with the 200; got 2 bytes");
    expect(payloadShapeRejection([], "an array")(exchange("fireExternalEvent", 400, { title: "bad" }), context)).toBeUndefined();
    expect(payloadShapeRejection([], "an array")(exchange("fireExternalEvent", 200, undefined), context)).toBe(
      "expected 500 for externalEventPayload = [] (an array; a 4xx also holds); got 200",
    );
    expect(pastMaximum(100)(pageOfIds(["a"], { pageSize: 100 }), context)).toBeUndefined();
    expect(pastMaximum(100)(pageOfIds(["a"], { pageSize: 101 }), context)).toBe(
      "expected pageSize=101, past the maximum 100, to be refused (4xx) or capped at 100; got 200 with pageSize 101 and 1 items",
    );
  });
});
