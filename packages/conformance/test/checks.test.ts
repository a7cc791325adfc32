import { describe, expect, it } from "vitest";
import type { Case, Exchange } from "../src/case.ts";
import { envelopeMath, filterMatch } from "../src/checks/index.ts";
import { notAServerError, statusCodeConformance } from "../src/checks/response.ts";
import { loadDescription } from "../src/description.ts";

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
    ["the last page, counting from 1", 1, page({ pageIndex: 3, totalItemCount: 25, totalPageCount: 3, fromItemInclusive: 20, toItemExclusive: 25 }, 5), { pageIndex: "3" }, undefined],
    ["no match at all", 0, page({}, 0), {}, undefined],
    ["a page past the end, empty", 0, page({ pageIndex: 7, totalItemCount: 5, totalPageCount: 1, fromItemInclusive: 5, toItemExclusive: 5 }, 0), { pageIndex: "7" }, undefined],
    ["hasMore on the last page", 0, page({ hasMore: true }, 4), {}, "hasMore: expected false, got true"],
    ["a page count off by one", 0, page({ totalItemCount: 25, totalPageCount: 4, hasMore: true, toItemExclusive: 10 }, 10), {}, "totalPageCount (ceil(totalItemCount / pageSize)): expected 3, got 4"],
    ["another page than asked", 0, page({}, 4), { pageIndex: "2" }, "pageIndex (as requested): expected 2, got 0"],
    ["items past the page size", 0, page({ pageSize: 3, totalPageCount: 2, hasMore: true, toItemExclusive: 3 }, 4), {}, "items: expected at most pageSize 3, got 4"],
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

describe("not_a_server_error and status_code_conformance", () => {
  it.each([
    ["fireExternalEvent", 500, undefined, undefined],
    ["searchConversations", 500, "expected no server error; got 500", undefined],
    ["listExternalEventTriggers", 503, "expected no server error; got 503", "expected one of the documented statuses 200, 401, 404, 500; got 503"],
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
