import type { ConversationPage, ConversationSummary } from "@bot-conversation/types";
import { beforeAll, describe, expect, test } from "vitest";
import { operationParameters, serviceDescription } from "../src/description.ts";
import { searchFiltersOf } from "../src/engine/filters.ts";
import { queryChecker } from "../src/operations/request.ts";
import { envelopeJson } from "../src/operations/search.ts";
import { responseProblems } from "./support/description.ts";
import { sandboxForTests } from "./support/sandbox.ts";

const sandbox = await sandboxForTests({ conversations: 60 });
const searchPath = "/api/v2/channels/conversations";

async function search(query: Record<string, string | number> = {}): Promise<ConversationPage> {
  const response = await sandbox.call(`${searchPath}?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]))}`);
  expect(await responseProblems("searchConversations", response)).toEqual([]);
  expect(response.status).toBe(200);
  return (await response.json()) as ConversationPage;
}

let all: ConversationSummary[] = [];
let agentStageIds: string[] = [];
beforeAll(async () => {
  all = (await search({ pageSize: 1000 })).items;
  // The bots are the members with role Bot.
  agentStageIds = [...new Set(all.map((item) => item.members.find((member) => member.role === "Bot")!.id))];
});
const botOf = (item: ConversationSummary) => item.members.find((member) => member.role === "Bot")!.id;
const ms = (text: string) => Date.parse(text);

describe("search filters", () => {
  const median = () => [...all].sort((a, b) => ms(a.startedOn) - ms(b.startedOn))[30]!;
  const latestMedian = () => [...all].sort((a, b) => ms(a.latestMessageOn) - ms(b.latestMessageOn))[30]!;
  const cases: [string, () => Record<string, string>, (item: ConversationSummary) => boolean][] = [
    ["agentStageId", () => ({ agentStageId: agentStageIds[1]! }), (item) => botOf(item) === agentStageIds[1]],
    ["status", () => ({ status: "Closed" }), (item) => item.status === "Closed"],
    ["channelId", () => ({ channelId: "platform" }), (item) => item.channelId === "platform"],
    ["startFromDate", () => ({ startFromDate: median().startedOn }), (item) => ms(item.startedOn) >= ms(median().startedOn)],
    ["startToDate", () => ({ startToDate: median().startedOn }), (item) => ms(item.startedOn) <= ms(median().startedOn)],
    [
      "latestMessageFromDate",
      () => ({ latestMessageFromDate: latestMedian().latestMessageOn }),
      (item) => ms(item.latestMessageOn) >= ms(latestMedian().latestMessageOn),
    ],
    [
      "latestMessageToDate",
      () => ({ latestMessageToDate: latestMedian().latestMessageOn }),
      (item) => ms(item.latestMessageOn) <= ms(latestMedian().latestMessageOn),
    ],
  ];

  test.each(cases)("%s alone returns exactly the matching conversations", async (_name, query, matches) => {
    const expected = all.filter(matches).map((item) => item.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    const page = await search({ ...query(), pageSize: 1000 });
    expect(page.items.map((item) => item.id)).toEqual(expected);
    expect(page.totalItemCount).toBe(expected.length);
  });

  test("every filter combined returns the intersection", async () => {
    const pivot = median().startedOn;
    // The bot, status and channel of a conversation started before the pivot, so the intersection is not empty.
    const target = all.find((item) => ms(item.startedOn) < ms(pivot))!;
    const [bot, status, channelId] = [botOf(target), target.status, target.channelId];
    const query = {
      agentStageId: bot,
      status,
      channelId,
      startFromDate: "2026-01-01T00:00:00Z",
      startToDate: pivot,
      latestMessageFromDate: "2026-01-01T00:00:00+03:00",
      latestMessageToDate: "2027-01-01T00:00:00Z",
    };
    const expected = all.filter((item) => botOf(item) === bot && item.status === status && item.channelId === channelId && ms(item.startedOn) <= ms(pivot));
    expect(expected).toContain(target);
    const page = await search({ ...query, pageSize: 1000 });
    expect(page.items.map((item) => item.id)).toEqual(expected.map((item) => item.id));
  });

  test("a bot without conversations gives an empty first page", async () => {
    expect(await search({ agentStageId: "no-such-bot" })).toEqual({
      items: [],
      hasMore: false,
      pageIndex: 0,
      pageSize: 20,
      totalItemCount: 0,
      totalPageCount: 0,
      fromItemInclusive: 0,
      toItemExclusive: 0,
    });
  });
});

describe("the page envelope", () => {
  test.each([
    // pageIndex, pageSize, items, hasMore, from, to
    [0, 7, 7, true, 0, 7],
    [3, 7, 7, true, 21, 28],
    [8, 7, 4, false, 56, 60],
    [9, 7, 0, false, 60, 60],
    [500, 7, 0, false, 60, 60],
    [0, 60, 60, false, 0, 60],
    [0, 61, 60, false, 0, 60],
    [1, 30, 30, false, 30, 60],
  ])("pageIndex %i, pageSize %i of 60: %i items, hasMore %s, items %i to %i", async (pageIndex, pageSize, count, hasMore, from, to) => {
    const page = await search({ pageIndex, pageSize });
    expect(page).toMatchObject({
      pageIndex,
      pageSize,
      hasMore,
      totalItemCount: 60,
      totalPageCount: Math.ceil(60 / pageSize),
      fromItemInclusive: from,
      toItemExclusive: to,
    });
    expect(page.items.map((item) => item.id)).toEqual(all.slice(from, to).map((item) => item.id));
    expect(page.items).toHaveLength(count);
  });

  test("the envelope's JSON is JSON.stringify's, with every field of the description's page but the items", () => {
    const envelope = { hasMore: false, pageIndex: 3, pageSize: 7, totalItemCount: 60, totalPageCount: 9, fromItemInclusive: 21, toItemExclusive: 28 };
    expect(envelopeJson(envelope)).toBe(JSON.stringify(envelope));
    const described = Object.keys(serviceDescription.components.schemas["ConversationPage"]?.properties ?? {}).filter((name) => name !== "items");
    expect(Object.keys(JSON.parse(envelopeJson(envelope))).sort()).toEqual(described.sort());
  });

  test("without pageSize and pageIndex, the first page of the default size (20)", async () => {
    const page = await search();
    expect(page).toMatchObject({ pageIndex: 0, pageSize: 20, hasMore: true, fromItemInclusive: 0, toItemExclusive: 20, totalPageCount: 3 });
  });
});

describe("the order", () => {
  test("newest start first, the same on every request", async () => {
    const times = all.map((item) => ms(item.startedOn));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await search({ pageSize: 1000 })).items).toEqual(all);
  });

  test("walking every page yields each conversation once", async () => {
    const ids: string[] = [];
    for (let pageIndex = 0, hasMore = true; hasMore; pageIndex++) {
      const page = await search({ pageIndex, pageSize: 9 });
      ids.push(...page.items.map((item) => item.id));
      hasMore = page.hasMore;
    }
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });
});

describe("invalid parameters", () => {
  test.each([
    ["pageSize=0", "query.pageSize", /^expected an integer of at least 1; got "0"$/],
    ["pageSize=abc", "query.pageSize", /^expected an integer of at least 1; got "abc"$/],
    ["pageSize=1.5", "query.pageSize", /^expected an integer of at least 1; got "1.5"$/],
    ["pageSize=", "query.pageSize", /^expected an integer of at least 1; got ""$/],
    ["pageIndex=-1", "query.pageIndex", /^expected an integer of at least 0; got "-1"$/],
    ["pageIndex=99999999999999999999", "query.pageIndex", /^expected an integer from 0 to 9007199254740991; got "99999999999999999999"$/],
    ["status=Open", "query.status", /^expected one of Active, Closed, Operator; got "Open"$/],
    ["status=active", "query.status", /^expected one of Active, Closed, Operator; got "active"$/],
    ["startFromDate=next%20Tuesday", "query.startFromDate", /^expected an ISO 8601 date-time such as 2026-11-18T00:00:00\+03:00; got "next Tuesday"$/],
    // One date rule, the client's parseDateTime, for search and fire alike (see fire.test.ts).
    ["startToDate=2026-12-31T23:59:60Z", "query.startToDate", /date-time.*; got "2026-12-31T23:59:60Z"/],
    ["startToDate=2026-12-31T23:59:59%2B05", "query.startToDate", /date-time.*; got "2026-12-31T23:59:59\+05"/],
    ["startFromDate=2026-11-20", "query.startFromDate", /date-time/],
    ["startFromDate=2026-11-20T10:00:00", "query.startFromDate", /date-time/],
    ["latestMessageFromDate=2026-02-30T10:00:00Z", "query.latestMessageFromDate", /date-time/],
    ["latestMessageFromDate=2026-11-20T24:00:00Z", "query.latestMessageFromDate", /date-time/],
    ["latestMessageToDate=2026-13-01T00:00:00Z", "query.latestMessageToDate", /date-time/],
    ["pageSize=1&pageSize=2", "query.pageSize", /must be sent once; got 2 values/],
    ["sort=id", "query.sort", /is not a parameter of this operation/],
  ])("%s is a 400 naming %s", async (query, path, message) => {
    const response = await sandbox.call(`${searchPath}?${query}`);
    expect(await responseProblems("searchConversations", response)).toEqual([]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { path: string; message: string }[] };
    expect(body.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  test("every defect is listed at once", async () => {
    const response = await sandbox.call(`${searchPath}?pageSize=0&status=x&channelId=platform`);
    const body = (await response.json()) as { errors: { path: string }[] };
    expect(body.errors.map((error) => error.path).sort()).toEqual(["query.pageSize", "query.status"]);
  });
});

describe("dates are read once: the query check hands the search their instants", () => {
  const checkSearch = queryChecker(operationParameters(serviceDescription, "searchConversations"));

  test("each date-time comes back as its instant (epoch milliseconds), the other parameters as their types", () => {
    const checked = checkSearch(
      new URLSearchParams({
        startFromDate: "2026-11-20T09:15:02+03:00",
        startToDate: "2026-11-21T00:00:00.250Z",
        latestMessageFromDate: "2026-11-20t10:00:00-05:30",
        latestMessageToDate: "2026-12-31T23:59:59Z",
        status: "Active",
        pageSize: "5",
      }),
      { rejectUnknown: true },
    );
    expect(checked).toEqual({
      ok: true,
      value: {
        startFromDate: Date.UTC(2026, 10, 20, 6, 15, 2),
        startToDate: Date.UTC(2026, 10, 21, 0, 0, 0, 250),
        latestMessageFromDate: Date.UTC(2026, 10, 20, 15, 30),
        latestMessageToDate: Date.UTC(2026, 11, 31, 23, 59, 59),
        status: "Active",
        pageSize: 5,
      },
    });
    // searchFiltersOf takes those instants as they are, each into its field's period.
    expect(searchFiltersOf(checked.ok ? checked.value : {}, false).periods).toEqual({
      startedOn: { from: Date.UTC(2026, 10, 20, 6, 15, 2), to: Date.UTC(2026, 10, 21, 0, 0, 0, 250) },
      latestMessageOn: { from: Date.UTC(2026, 10, 20, 15, 30), to: Date.UTC(2026, 11, 31, 23, 59, 59) },
    });
  });

  test("a date filter's value that no query check read (text) is refused by searchFiltersOf, not parsed a second time", () => {
    expect(() => searchFiltersOf({ startFromDate: "2026-11-20T09:15:02Z" }, true)).toThrow(/startFromDate must be an instant/);
  });

  test("a date-time whose schema says more than its format is held to the rest too, after the one read", () => {
    const check = queryChecker([{ name: "since", in: "query", required: false, schema: { type: "string", format: "date-time", pattern: "Z$" } }]);
    expect(check(new URLSearchParams({ since: "2026-11-20T09:15:02Z" }), { rejectUnknown: true })).toEqual({
      ok: true,
      value: { since: Date.UTC(2026, 10, 20, 9, 15, 2) },
    });
    const refused = check(new URLSearchParams({ since: "2026-11-20T09:15:02+01:00" }), { rejectUnknown: true });
    expect(refused.ok ? [] : refused.defects.map((defect) => defect.path)).toEqual(["query.since"]);
    const notADate = check(new URLSearchParams({ since: "soon" }), { rejectUnknown: true });
    // A date the rule refuses is said by the whole schema, as before: its format and the rest.
    expect(notADate.ok ? [] : notADate.defects).toEqual([
      { path: "query.since", message: expect.stringMatching(/pattern.*; got "soon"/) },
      { path: "query.since", message: expect.stringMatching(/date-time.*; got "soon"/) },
    ]);
  });
});
