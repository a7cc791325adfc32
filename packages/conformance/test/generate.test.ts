import { parseDateTime } from "@bot-conversation/client";
import { searchFilters } from "@bot-conversation/openapi";
import { createAjv } from "@bot-conversation/openapi/ajv";
import { variableTypes } from "@bot-conversation/types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDescription, operationOf } from "../src/description.ts";
import { dataQuery, fitsType, invalidQuery, type Observed, rightValue, ruledOut, searchQuery, validQuery, wrongValue } from "../src/generate.ts";
import { isIso8601, nearMissesOf, openFormsOf, variableTypeTable } from "../src/variable-values.ts";

const description = loadDescription();
const search = operationOf(description, "searchConversations");
const ajv = createAjv({ allErrors: false });
const parameters = new Map(search.parameters.map((parameter) => [parameter.name, ajv.compile(parameter.schema)]));
const observed: Observed = { agentStageIds: ["bot-1"], channelIds: ["directline"], dates: ["2026-11-20T09:15:02+03:00"] };

/** A query-string value read back as its schema's type (integers are digits in a query string). */
const typed = (name: string, value: string): unknown =>
  search.parameters.find((parameter) => parameter.name === name)?.schema["type"] === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
const valid = (name: string, value: string): boolean => parameters.get(name)!(typed(name, value));

describe("generated search queries", () => {
  it("valid queries are valid against every parameter's schema", () => {
    fc.assert(
      fc.property(validQuery(search, observed), (query) => Object.entries(query).every(([name, value]) => valid(name, value))),
      { seed: 1, numRuns: 300 },
    );
  });

  it("invalid queries break exactly the parameter they name, and never by letter case alone", () => {
    const statuses = (search.parameters.find((parameter) => parameter.name === "status")!.schema["enum"] as string[]).map((value) => value.toLowerCase());
    fc.assert(
      fc.property(invalidQuery(search, observed)!, ({ query, parameter }) => {
        expect(valid(parameter, query[parameter]!)).toBe(false);
        for (const [name, value] of Object.entries(query)) if (name !== parameter) expect(valid(name, value)).toBe(true);
        if (parameter === "status") expect(statuses).not.toContain(query[parameter]!.toLowerCase());
      }),
      { seed: 1, numRuns: 300 },
    );
  });

  it("searches built to return data are valid, carry at most two filters besides the bot, and take values from the data", () => {
    // The filters of the search filters' one table, the bot's aside.
    const filters: string[] = searchFilters.filter((filter) => filter.matches !== "bot").map((filter) => filter.name);
    fc.assert(
      fc.property(dataQuery(search, observed), (query) => {
        expect(Object.entries(query).every(([name, value]) => valid(name, value))).toBe(true);
        expect(Object.keys(query).filter((name) => filters.includes(name)).length).toBeLessThanOrEqual(2);
        if (query["channelId"] !== undefined) expect(query["channelId"]).toBe("directline");
        if (query["agentStageId"] !== undefined) expect(query["agentStageId"]).toBe("bot-1");
      }),
      { seed: 3, numRuns: 300 },
    );
  });

  it("with no data seen, generated searches are still valid", () => {
    const none: Observed = { agentStageIds: [], channelIds: [], dates: [] };
    fc.assert(
      fc.property(searchQuery(search, none), (query) => Object.entries(query).every(([name, value]) => valid(name, value))),
      { seed: 4, numRuns: 200 },
    );
  });

  it("pageIndex starts at the server's first page once it is known", () => {
    fc.assert(
      fc.property(validQuery(search, { ...observed, pageBase: 1 }), (query) => query["pageIndex"] === undefined || Number(query["pageIndex"]) >= 1),
      { seed: 2, numRuns: 200 },
    );
  });
});

describe("the variable-type table", () => {
  const trigger = {
    externalEventId: "t",
    externalEventName: "T",
    parameters: Object.fromEntries(variableTypes.map((type) => [type.toLowerCase(), { name: type, type }])),
  };
  const variable = (type: (typeof variableTypes)[number]) => ({ trigger, code: type.toLowerCase(), type });

  it.each(variableTypes)(
    "every near miss of %s, of every kind and any seed, is ruled out by the seed's words and refused by the client's validateEventPayload, and the accepted values pass it",
    (type) => {
      const row = variableTypeTable[type];
      expect(row.nearMisses.length).toBeGreaterThanOrEqual(2);
      for (const kind of row.nearMisses)
        fc.assert(
          fc.property(kind.values, (value) => {
            expect(fitsType(variable(type), value), `${kind.what}: ${JSON.stringify(value)}`).toBe(false);
            expect(ruledOut(variable(type), value), `${kind.what}: ${JSON.stringify(value)}`).toBe(true);
          }),
          { seed: 2, numRuns: 100 },
        );
      fc.assert(
        fc.property(rightValue(variable(type)), (value) => fitsType(variable(type), value)),
        { seed: 1, numRuns: 200 },
      );
    },
  );

  it("near misses and open forms are drawn by the run's seed: the same seed the same values, one of every kind", () => {
    for (const type of variableTypes) {
      expect(nearMissesOf(type, 7)).toEqual(nearMissesOf(type, 7));
      expect(nearMissesOf(type, 7).map((miss) => miss.what)).toEqual(variableTypeTable[type].nearMisses.map((kind) => kind.what));
    }
    expect(openFormsOf("DateTime", 7)).toEqual(openFormsOf("DateTime", 7));
    expect(openFormsOf("DateTime", 7).map((form) => form.value)).not.toEqual(openFormsOf("DateTime", 8).map((form) => form.value));
  });

  it("a DateTime value the seed allows is never a near miss: every open form is ISO 8601 (or RFC 3339's space) and outside the toolkit's rule, reported", () => {
    const dateTime = variable("DateTime");
    for (const value of ["2026-11-20T09:15:02", "2026-11-20", "20261120T091502Z", "2026-W47-5T09:15", "2026-324", "2026-11-20T09:15:02,5+03"]) {
      expect(ruledOut(dateTime, value), value).toBe(false);
      for (const seed of [1, 2, 3]) expect(nearMissesOf("DateTime", seed).map((miss) => miss.value)).not.toContain(value);
    }
    for (const form of variableTypeTable.DateTime.openForms!)
      fc.assert(
        fc.property(form.values, (value) => {
          expect(Number.isNaN(parseDateTime(value)), `${form.what}: ${String(value)}`).toBe(true);
          if (!form.what.startsWith("a space")) expect(ruledOut(dateTime, value), `${form.what}: ${String(value)}`).toBe(false);
        }),
        { seed: 5, numRuns: 100 },
      );
    // The generated wrong values never include a form of ISO 8601.
    fc.assert(
      fc.property(wrongValue(dateTime), (value) => ruledOut(dateTime, value) && !isIso8601(value)),
      { seed: 3, numRuns: 200 },
    );
  });

  it("the accepted values span each type's whole space, not the familiar corner", () => {
    const sample = (type: (typeof variableTypes)[number]): unknown[] => fc.sample(rightValue(variable(type)), { seed: 6, numRuns: 400 });
    const strings = sample("String") as string[];
    expect(strings.some((value) => /[\u{10000}-\u{10FFFF}]/u.test(value))).toBe(true);
    expect(strings).toContain("");
    const numbers = sample("Number") as number[];
    expect(numbers.some((value) => Math.abs(value) > 2 ** 53)).toBe(true);
    expect(numbers.some((value) => !Number.isInteger(value))).toBe(true);
    expect(numbers.some((value) => value < 0)).toBe(true);
    const names = sample("PersonName") as string[];
    expect(names.some((value) => /[^\p{Script=Latin}\s.'-]/u.test(value))).toBe(true);
    expect(names.some((value) => value.split(" ").length > 2)).toBe(true);
    expect(names.some((value) => /\p{L}\./u.test(value))).toBe(true);
    const dates = sample("DateTime") as string[];
    expect(dates.some((value) => Number(value.slice(0, 4)) < 1000)).toBe(true);
    expect(dates.some((value) => /[+-](1[5-9]|2\d):\d\d$/.test(value))).toBe(true);
    const objects = sample("ComplexObject") as Record<string, unknown>[];
    expect(objects.some((value) => Object.keys(value).some((key) => /[^\x20-\x7e]/.test(key)))).toBe(true);
    const files = sample("File") as { name: string; fileUrl: string }[];
    expect(files.some((value) => /[^\x20-\x7e]/.test(value.name))).toBe(true);
  });

  it("the accepted DateTime values span the offsets and fractions RFC 3339 writes, every one an instant by the client's rule", () => {
    const values = fc.sample(rightValue(variable("DateTime")), { seed: 4, numRuns: 300 }) as string[];
    expect(values.some((value) => value.endsWith("Z"))).toBe(true);
    expect(values.some((value) => /[+-]\d\d:\d\d$/.test(value) && !value.endsWith("+00:00"))).toBe(true);
    expect(values.some((value) => /\.\d{4,}/.test(value))).toBe(true);
    expect(values.some((value) => !value.includes("."))).toBe(true);
    for (const value of values) expect(Number.isNaN(parseDateTime(value)), value).toBe(false);
  });
});
