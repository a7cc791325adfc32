import { describe, expect, it } from "vitest";
import { readDescription } from "../src/description.ts";
import { boundSide, dateFilters, searchFilters, searchPeriods } from "../src/search-filters.ts";
import { description, searchParameterNames } from "./support/description.ts";

const reader = readDescription(description);
const summaryFields = Object.keys(reader.dereference(reader.schema("ConversationSummary"))["properties"] as object);

describe("searchFilters: the search's one table of filters, equality and date filters alike", () => {
  it("names every query parameter of the search but the paging ones, in the description's order", () => {
    expect(searchFilters.map((filter) => filter.name)).toEqual(searchParameterNames().filter((name) => name !== "pageSize" && name !== "pageIndex"));
  });

  it("matches each filter on a field of the conversation summary (or the bot, which the summary does not carry); a date filter's parameter and field are date-times", () => {
    for (const filter of searchFilters) if (filter.matches !== "bot") expect(summaryFields, filter.name).toContain(filter.matches);
    const search = reader.operation("searchConversations");
    for (const filter of dateFilters) {
      expect(search.parameters.find((parameter) => parameter.name === filter.name)?.schema["format"], filter.name).toBe("date-time");
      expect(["from", "to"]).toContain(filter.how);
    }
  });

  it("pairs the date filters into periods, one per instant field, from its from and to filters", () => {
    const named = (name: string) => dateFilters.find((filter) => filter.name === name);
    for (const period of searchPeriods) {
      expect(named(period.from)).toEqual({ name: period.from, matches: period.field, how: "from" });
      expect(named(period.to)).toEqual({ name: period.to, matches: period.field, how: "to" });
    }
    expect(searchPeriods[0]).toEqual({ field: "startedOn", from: "startFromDate", to: "startToDate" });
    // Every date filter is a bound of exactly one period.
    expect(searchPeriods.flatMap((period) => [period.from, period.to]).sort()).toEqual(dateFilters.map((filter) => filter.name).sort());
  });

  it.each([
    ["from", 10, 5, "inside"],
    ["from", 4, 5, "outside"],
    ["to", 4, 5, "inside"],
    ["to", 10, 5, "outside"],
    ["from", 5, 5, "at"],
    ["to", 5, 5, "at"],
  ] as const)("boundSide: an instant against a %s bound (%i against %i) is %s; the bound's own instant is the open point", (how, instant, bound, side) => {
    expect(boundSide(how, instant, bound)).toBe(side);
  });
});
