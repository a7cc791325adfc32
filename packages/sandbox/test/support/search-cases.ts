/**
 * One suite for every search engine (the store and the plain reference engine run it alike, as Hono's
 * routers share `common.case.test.ts`): six conversations whose starts and last messages tie in pairs,
 * each case with its expected page written out.
 */
import type { ConversationExport } from "@bot-conversation/types";
import { beforeAll, describe, expect, test } from "vitest";
import { dataOf } from "../../src/data/source.ts";
import { operationParameters, serviceDescription } from "../../src/description.ts";
import { type SearchEngine, type SearchOrder, searchFiltersOf } from "../../src/engine/filters.ts";
import type { SandboxData } from "../../src/model.ts";
import { type QueryValues, queryChecker } from "../../src/operations/request.ts";
import { exampleBot, exampleFixture } from "./fixture.ts";

const otherBot = "bot-b";
const day = (n: number) => `2026-11-0${n}T08:00:00Z`;

/** id, bot, status, channel, start day, last message day, in load order. */
const rows = [
  ["c0", exampleBot, "Active", "directline", 1, 5],
  ["c1", exampleBot, "Closed", "platform", 2, 5],
  ["c2", otherBot, "Active", "directline", 2, 4],
  ["c3", exampleBot, "Active", "platform", 3, 6],
  ["c4", otherBot, "Closed", "directline", 1, 7],
  ["c5", exampleBot, "Active", "directline", 3, 4],
] as const;

/** The six conversations, each a copy of the description's example export with its own fields. */
export function searchCaseData(): SandboxData {
  const base = exampleFixture();
  const exported: ConversationExport = base.conversations[0]!.conversation;
  return dataOf({
    fixture: {
      bots: [base.bots[0]!, { agentStageId: otherBot, triggers: [] }],
      conversations: rows.map(([id, agentStageId, status, channelId, start, last]) => ({
        agentStageId,
        startedOn: day(start),
        conversation: {
          ...structuredClone(exported),
          id,
          status,
          channelId,
          channelData: null,
          history: exported.history.map((activity) => (activity.type === "Message" ? { ...activity, timestamp: day(last) } : activity)),
        },
      })),
    },
  });
}

const decoder = new TextDecoder();

const checkSearchQuery = queryChecker(operationParameters(serviceDescription, "searchConversations"));

/** A search's query in the description's words (dates in ISO 8601), read as the search reads it: by its query check, dates as instants. */
export function searchQueryOf(query: Readonly<Record<string, string>>): QueryValues {
  const checked = checkSearchQuery(new URLSearchParams(query), { rejectUnknown: true });
  if (!checked.ok) throw new Error(`Not a search query: ${JSON.stringify(checked.defects)}`);
  return checked.value;
}

/** Runs every case against the engine `load` makes of the data. */
export function searchCases(load: (data: SandboxData) => SearchEngine | Promise<SearchEngine>): void {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await load(searchCaseData());
  });
  /** A search in the description's words (its query parameters, dates in ISO 8601) read by the one table; `toInclusive` true unless given. */
  const ids = (
    { toInclusive = true, ...query }: { readonly toInclusive?: boolean; readonly [parameter: string]: string | boolean },
    order: SearchOrder = "startedOn-desc",
    limit = 100,
    offset = 0,
  ) => {
    const { total, items } = engine.search(searchFiltersOf(searchQueryOf(query as Record<string, string>), toInclusive), order, limit, offset);
    return { total, ids: items.map((item) => (JSON.parse(`${decoder.decode(item.openSummary)}}`) as { id: string }).id) };
  };
  const all = (list: string[]) => ({ total: list.length, ids: list });

  describe("orders: ties follow the load order in the direction of the sort", () => {
    test.each([
      ["startedOn-desc", ["c5", "c3", "c2", "c1", "c4", "c0"]],
      ["startedOn-asc", ["c0", "c4", "c1", "c2", "c3", "c5"]],
      ["latestMessageOn-desc", ["c4", "c3", "c1", "c0", "c5", "c2"]],
    ] as const)("%s", (order, expected) => expect(ids({}, order)).toEqual(all([...expected])));
  });

  describe("equality filters, alone and combined (with and without a list of their pair)", () => {
    test.each([
      ["agentStageId", { agentStageId: exampleBot }, ["c5", "c3", "c1", "c0"]],
      ["status", { status: "Active" }, ["c5", "c3", "c2", "c0"]],
      ["channelId", { channelId: "directline" }, ["c5", "c2", "c4", "c0"]],
      ["agentStageId and status", { agentStageId: exampleBot, status: "Active" }, ["c5", "c3", "c0"]],
      ["agentStageId and channelId", { agentStageId: exampleBot, channelId: "directline" }, ["c5", "c0"]],
      ["status and channelId", { status: "Active", channelId: "directline" }, ["c5", "c2", "c0"]],
      ["all three", { agentStageId: otherBot, status: "Closed", channelId: "directline" }, ["c4"]],
      ["a bot no conversation has", { agentStageId: "no-such-bot" }, []],
      ["a status no conversation has", { status: "Operator" }, []],
      ["a known bot with a channel none of its conversations is on", { agentStageId: otherBot, channelId: "platform" }, []],
    ] as const)("%s", (_name, filters, expected) => expect(ids(filters)).toEqual(all([...expected])));
  });

  describe("date ranges (the table's date filters): from is inclusive, to by toInclusive", () => {
    test.each([
      ["start within days 2-3, to inclusive", { startFromDate: day(2), startToDate: day(3) }, "startedOn-desc", ["c5", "c3", "c2", "c1"]],
      ["start within days 2-3, to exclusive", { startFromDate: day(2), startToDate: day(3), toInclusive: false }, "startedOn-desc", ["c2", "c1"]],
      [
        "last message within days 6-7 in start order (a short run of the other instant)",
        { latestMessageFromDate: day(6), latestMessageToDate: day(7) },
        "startedOn-desc",
        ["c3", "c4"],
      ],
      [
        "last message within days 6-7, to exclusive",
        { latestMessageFromDate: day(6), latestMessageToDate: day(7), toInclusive: false },
        "startedOn-desc",
        ["c3"],
      ],
      ["a bot and last messages from day 5", { agentStageId: otherBot, latestMessageFromDate: day(5) }, "startedOn-asc", ["c4"]],
      ["start from day 2 in last-message order", { startFromDate: day(2) }, "latestMessageOn-desc", ["c3", "c1", "c5", "c2"]],
      [
        "both instants bounded",
        { startFromDate: day(1), startToDate: day(2), latestMessageFromDate: day(5), latestMessageToDate: day(5) },
        "startedOn-desc",
        ["c1", "c0"],
      ],
      ["a range that ends before it starts", { startFromDate: day(3), startToDate: day(2) }, "startedOn-desc", []],
    ] as const)("%s", (_name, filters, order, expected) => expect(ids(filters, order)).toEqual(all([...expected])));
  });

  describe("pages: the total counts every match, the page only its share", () => {
    test.each([
      ["the second page of two", {}, 2, 2, ["c2", "c1"]],
      ["the last, short page", {}, 4, 5, ["c0"]],
      ["past the end", {}, 4, 10, []],
      ["a page of a filter's own list", { status: "Active" }, 2, 1, ["c3", "c2"]],
      ["a page of a scan (no list of this pair)", { status: "Active", channelId: "directline" }, 2, 1, ["c2", "c0"]],
      ["a page of a short run of the other instant", { latestMessageFromDate: day(5) }, 2, 1, ["c1", "c4"]],
    ] as const)("%s", (_name, filters, limit, offset, expected) => {
      const found = ids(filters, "startedOn-desc", limit, offset);
      expect(found.ids).toEqual([...expected]);
      expect(found.total).toBe(ids(filters).total);
    });
  });
}
