import { parseDateTime } from "@bot-conversation/client";
import { dateFilters } from "@bot-conversation/openapi";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { dataOf } from "../src/data/source.ts";
import { operationParameters, serviceDescription } from "../src/description.ts";
import { type EqualityFilterName, equalityFilters, type SearchOrder, searchFiltersOf } from "../src/engine/filters.ts";
import { PlainEngine } from "../src/engine/plain.ts";
import type { Fixture } from "../src/index.ts";
import { createSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { searchQueryOf } from "./support/search-cases.ts";

interface Summary {
  id: string;
  status: string;
  channelId: string;
  startedOn: string;
  latestMessageOn: string;
  members: { id: string; role: string }[];
}
const token = { "x-token": "sandbox-token" };
const decoder = new TextDecoder();

/**
 * Sixty copies of the description's example conversation (its bot's), across three channels and three
 * statuses, starting at one of four instants and last written to at one of three: most instants are
 * shared, so the order among equal instants (the last loaded first) decides most pages.
 */
function fixtureWithTies(): Fixture {
  const base = exampleFixture();
  const conversation = base.conversations[0]!.conversation;
  const starts = ["2026-11-01T08:00:00Z", "2026-11-02T08:00:00Z", "2026-11-03T08:00:00Z", "2026-11-04T08:00:00Z"];
  const lasts = ["2026-11-05T08:00:00Z", "2026-11-06T08:00:00Z", "2026-11-07T08:00:00Z"];
  const statuses = ["Active", "Closed", "Operator"] as const;
  const channels = ["directline", "platform", "messenger_a"];
  return {
    bots: base.bots,
    conversations: Array.from({ length: 60 }, (_, index) => ({
      agentStageId: base.bots[0]!.agentStageId,
      startedOn: starts[index % 4]!,
      conversation: {
        ...structuredClone(conversation),
        id: `tie-${index}`,
        status: statuses[index % 3]!,
        channelId: channels[index % 3]!,
        channelData: null,
        history: conversation.history.map((activity) => (activity.type === "Message" ? { ...activity, timestamp: lasts[(index * 7) % 3]! } : activity)),
      },
    })),
  };
}

/**
 * Per equality filter, values its parameter's schema in the description accepts that the data may not hold: its
 * enumeration, or its examples and one value no conversation has. Read from the description, so a filter added
 * to the table (and its parameter to the description) is generated here with no edit.
 */
const beyondTheData = (name: EqualityFilterName): string[] => {
  const parameter = operationParameters(serviceDescription, "searchConversations").find((candidate) => candidate.name === name)!;
  const { enum: values, examples } = parameter.schema as { enum?: unknown[]; examples?: unknown[] };
  const listed = values ?? [...(examples ?? []), parameter.example, `no-such-${name}`];
  return listed.filter((value): value is string => typeof value === "string");
};

/**
 * The engine reads pages off presorted lists, bisects instant ranges, takes shortcuts when a list is
 * exactly the matches, and sorts a short run of the other instant's lists; the plain reference engine
 * (`src/engine/plain.ts`: every conversation filtered, then sorted) over the same data is the oracle.
 */
describe.each([
  ["startedOn-desc", "inclusive", "generated"],
  ["startedOn-asc", "exclusive", "generated"],
  ["latestMessageOn-desc", "inclusive", "generated"],
  ["startedOn-desc", "inclusive", "ties"],
  ["startedOn-asc", "inclusive", "ties"],
  ["latestMessageOn-desc", "exclusive", "ties"],
] as const)("search with order %s and --date-to %s over %s data equals the plain reference engine", (order, dateTo, data) => {
  test("generated filter combinations, pages and bounds at real instants", async () => {
    const fixture = data === "ties" ? fixtureWithTies() : undefined;
    const source = fixture ? { fixture } : { conversations: 400, seed: "oracle" };
    const sandbox = await createSandbox({ ...source, order: order as SearchOrder, dateTo, maxPageSize: null });
    const loaded = dataOf(source);
    const plain = PlainEngine.load(loaded);
    try {
      const all = ((await (await sandbox.fetch("http://x/api/v2/channels/conversations?pageSize=1000", { headers: token })).json()) as { items: Summary[] })
        .items;
      const instants = all.flatMap((item) => [item.startedOn, item.latestMessageOn]);
      const instant = fc.oneof(
        fc.constantFrom(...instants),
        fc.constantFrom(...instants).map((text) => new Date(parseDateTime(text) + 1).toISOString()),
      );
      // Every equality filter of the table, each with the values the data holds and those of `beyondTheData`.
      const valuesOf = (filter: (typeof equalityFilters)[number]) =>
        new Set([
          // A conversation's null (a nullable field's) is no value a request can send.
          ...Array.from({ length: loaded.count }, (_, index) => filter.valueOf(loaded.conversationAt(index))).filter((value) => value !== null),
          ...beyondTheData(filter.name),
        ]);
      const equalities = Object.fromEntries(equalityFilters.map((filter) => [filter.name, fc.constantFrom(...valuesOf(filter))])) as Record<
        EqualityFilterName,
        fc.Arbitrary<string>
      >;
      const query = fc.record(
        {
          ...equalities,
          ...(Object.fromEntries(dateFilters.map((filter) => [filter.name, instant])) as Record<(typeof dateFilters)[number]["name"], fc.Arbitrary<string>>),
          pageSize: fc.integer({ min: 1, max: 50 }).map(String),
          pageIndex: fc.integer({ min: 0, max: 5 }).map(String),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(query, async (filters) => {
          const size = Number(filters.pageSize ?? 20);
          const index = Number(filters.pageIndex ?? 0);
          const expected = plain.search(searchFiltersOf(searchQueryOf(filters), dateTo === "inclusive"), order, size, index * size);
          const page = (await (await sandbox.fetch(`http://x/api/v2/channels/conversations?${new URLSearchParams(filters)}`, { headers: token })).json()) as {
            items: Summary[];
            totalItemCount: number;
          };
          expect(page.totalItemCount).toBe(expected.total);
          expect(page.items.map((item) => item.id)).toEqual(
            expected.items.map((item) => (JSON.parse(`${decoder.decode(item.openSummary)}}`) as { id: string }).id),
          );
        }),
        { numRuns: 300, seed: 20261125 },
      );
    } finally {
      await sandbox.close();
    }
  });
});
