/**
 * Item 6 of issue 48: the kit never crashes on what a server answers. A server in front of the fixture sandbox
 * replaces answers with arbitrary JSON (a page whose `items` is an object, a string, null, huge numbers, items of
 * any shape) and arbitrary bytes; every run ends in a report (a failure or a finding), never a throw.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Exchange } from "../src/case.ts";
import { pageChecks, responseChecks } from "../src/checks/index.ts";
import { pagingWalk } from "../src/checks/paging.ts";
import type { CheckContext } from "../src/checks/types.ts";
import { bundledDescription } from "../src/description.ts";
import { type ConformanceReport, runConformance } from "../src/index.ts";
import { readTriggerList } from "../src/trigger-list.ts";
import { firing, isSearch, isTriggerList } from "./support/family-faults.ts";
import { type Fault, faultyFetch, faultyFetchBaseUrl, type ProxiedResponse } from "./support/faulty-proxy.ts";
import { caseTimeoutMs, kitRun } from "./support/kit-seeds.ts";
import { sandboxExportPath, useSandbox } from "./support/sandbox.ts";

const sandbox = useSandbox();

/** JSON of any shape, numbers past every integer a page could hold included. */
const anyJson = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.5, Number.MAX_SAFE_INTEGER * 10),
  fc.string({ unit: "binary", maxLength: 40 }),
);

/** Every field of a conversation summary, and a member's. */
const summaryFields = [
  "id",
  "channelId",
  "status",
  "messagesCount",
  "members",
  "startedOn",
  "channelData",
  "latestMessageOn",
  "latestMessageDirection",
  "latestMessageText",
  "closingStatus",
  "closingReason",
];
const memberFields = ["id", "name", "nickname", "role"];

/**
 * A search page (or any answer, read as one) with one part replaced by arbitrary JSON: the whole body, a part
 * of the envelope, an item, a field of an item, a member or a member's field.
 */
const brokenPage = fc
  .record({
    part: fc.constantFrom(
      "items",
      "item",
      "pageIndex",
      "pageSize",
      "totalItemCount",
      "totalPageCount",
      "fromItemInclusive",
      "toItemExclusive",
      "hasMore",
      "whole",
      "field",
      "member",
      "member field",
    ),
    field: fc.constantFrom(...summaryFields),
    memberField: fc.constantFrom(...memberFields),
    position: fc.nat(),
    value: anyJson,
  })
  .map(({ part, field, memberField, position, value }) => (page: Record<string, unknown>): unknown => {
    if (part === "whole") return value;
    const items: unknown[] = Array.isArray(page["items"]) ? [...page["items"]] : [];
    const at = items.length === 0 ? 0 : position % items.length;
    const item = (items[at] ?? {}) as Record<string, unknown>;
    const members: unknown[] = Array.isArray(item["members"]) ? [...item["members"]] : [{}];
    if (part === "item") items[at] = value;
    else if (part === "field") items[at] = { ...item, [field]: value };
    else if (part === "member") items[at] = { ...item, members: [value, ...members.slice(1)] };
    else if (part === "member field") items[at] = { ...item, members: [{ ...(members[0] as object), [memberField]: value }, ...members.slice(1)] };
    else return { ...page, [part]: value };
    return { ...page, items };
  });

/** Bytes of any kind, with or without a JSON content type: invalid UTF-8, a BOM, a lone surrogate's encoding. */
const anyBytes = fc.record({
  bytes: fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    fc.constant(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d])),
    fc.constant(new Uint8Array([0xed, 0xa0, 0x80])),
  ),
  contentType: fc.constantFrom("application/json", "application/json; charset=utf-16", "text/plain", ""),
});

/** A fault that answers each request of one kind (search, trigger list, any) with what `answer` makes of the sandbox's answer, drawn per request from `seed`. */
function arbitraryAnswers(seed: number, where: (url: URL) => boolean): Fault {
  const pages = fc.sample(brokenPage, { seed, numRuns: 200 });
  const raw = fc.sample(anyBytes, { seed, numRuns: 200 });
  const status = fc.sample(fc.constantFrom(200, 200, 200, 201, 204, 400, 401, 404, 500, 503), { seed, numRuns: 200 });
  let next = 0;
  return {
    response: (url: URL, response: ProxiedResponse) => {
      if (!where(url)) return;
      const turn = next++ % 200;
      // One answer in three is the server's own, so a run goes on past the first broken answer.
      if (turn % 3 === 2) return;
      if (turn % 4 === 3) {
        const { bytes, contentType } = raw[turn]!;
        response.status = status[turn]!;
        response.headers = contentType ? { "content-type": contentType } : {};
        response.body = "";
        response.bytes = bytes;
        return;
      }
      if (response.body === "") return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(response.body);
      } catch {
        return;
      }
      const edited = pages[turn]!(
        typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { items: parsed },
      );
      response.body = JSON.stringify(edited) ?? "null";
    },
  };
}

const run = (seed: number, fault: Fault, options = {}): Promise<ConformanceReport> =>
  runConformance(
    kitRun(faultyFetchBaseUrl, seed, {
      examples: 3,
      maxRequests: 300,
      fetch: faultyFetch({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, fault),
      ...options,
    }),
  );

describe("the kit never crashes on what a server answers (issue 48, item 6)", () => {
  it.each([
    { name: "search answers of any shape", where: isSearch, options: {} },
    { name: "trigger lists of any shape, firing on", where: isTriggerList, options: firing },
    { name: "every answer of any shape, firing on, exports read", where: () => true, options: { ...firing, exportPath: sandboxExportPath } },
  ])("$name: every seed ends in a report", { timeout: caseTimeoutMs }, async ({ where, options }) => {
    const seeds = Array.from({ length: 16 }, (_, index) => index + 1);
    const reports = await Promise.all(seeds.map((seed) => run(seed, arbitraryAnswers(seed, where), options)));
    for (const report of reports) {
      expect(report.checks.length).toBeGreaterThan(0);
      // The broken answers are reported: at least one check failed or could not judge.
      expect(
        report.checks.some((check) => check.failed > 0 || check.notJudged > 0),
        `seed ${report.seed}`,
      ).toBe(true);
    }
  });
});

describe("every check of one answer takes any answer (issue 48, item 6)", () => {
  const description = bundledDescription();
  const operations = ["searchConversations", "listExternalEventTriggers", "fireExternalEvent", "export"];
  const anyExchange = fc.record({
    operationId: fc.constantFrom(...operations),
    status: fc.constantFrom(200, 200, 201, 204, 400, 401, 404, 405, 406, 500, 503),
    json: anyJson,
    isJson: fc.boolean(),
    query: fc.dictionary(fc.constantFrom("pageSize", "pageIndex", "status", "channelId", "startFromDate", "latestMessageToDate"), fc.string({ maxLength: 12 })),
    contentType: fc.constantFrom("application/json", "application/problem+json; charset=utf-8", "text/html", ""),
  });
  type Drawn = typeof anyExchange extends fc.Arbitrary<infer T> ? T : never;
  const exchangeOf = (drawn: Drawn): Exchange => ({
    case: {
      operationId: drawn.operationId,
      method: drawn.operationId === "fireExternalEvent" ? "POST" : "GET",
      path: "/",
      query: drawn.query,
      authentication: "token",
    },
    status: drawn.status,
    headers: new Headers(drawn.contentType ? { "content-type": drawn.contentType } : {}),
    text: JSON.stringify(drawn.json) ?? "",
    json: drawn.isJson ? drawn.json : undefined,
    isJson: drawn.isJson,
    elapsedMs: 1,
  });
  const context: CheckContext = { description, pageBase: 0, decisions: {}, defaultPageSize: 20, maxResponseTimeMs: 1000 };

  it("the catalog's checks of every response and every page, the walk and the trigger list's reader: a verdict, never a throw", () => {
    fc.assert(
      fc.property(fc.array(anyExchange, { minLength: 1, maxLength: 4 }), (drawn) => {
        const exchanges = drawn.map(exchangeOf);
        for (const exchange of exchanges) {
          for (const [, check] of [...responseChecks, ...pageChecks]) check(exchange, context);
          readTriggerList(exchange.json);
        }
        pagingWalk(exchanges);
      }),
      { numRuns: 300, seed: 48 },
    );
  });
});
