import { decisionById, decisions } from "@bot-conversation/openapi";
import { describe, expect, test } from "vitest";
import { defaultSwitches, parseSwitch, switchDefinitions } from "../src/switches.ts";

describe("the switches are read from decisions.yaml (@bot-conversation/openapi), joined by id", () => {
  test("each switch is the sandbox answer of its open point: the flag, the values and the point's label come from that entry", () => {
    expect(switchDefinitions.map((definition) => definition.flag)).toEqual(
      decisions.flatMap((entry) => ("sandbox" in entry && "flag" in entry.sandbox ? [entry.sandbox.flag] : [])),
    );
    for (const definition of switchDefinitions) {
      const entry = decisionById(definition.decision);
      expect({ flag: entry.sandbox?.flag, values: entry.sandbox?.values, point: entry.label }).toEqual({
        flag: definition.flag,
        values: definition.values,
        point: definition.point,
      });
    }
    // The unlisted-parameters switch answers the row its README text stands in (there is no row named "Unlisted query parameters").
    expect(switchDefinitions.find((definition) => definition.flag === "unknown-parameters")?.point).toBe("Search error statuses");
  });

  test("the defaults, read there, are the sandbox's defaults as before", () => {
    expect(defaultSwitches).toEqual({
      pageBase: 0,
      defaultPageSize: 20,
      maxPageSize: null,
      order: "startedOn-desc",
      statusCase: "exact",
      dateTo: "inclusive",
      unknownParameters: "reject",
      triggerList: "array",
      identifierWins: "conversationId",
      inboundDirection: "Inbound",
      errorMediaType: "application/json",
    });
  });

  test("every listed value parses, and a value the entry does not list is refused naming the flag and the values", () => {
    for (const definition of switchDefinitions) {
      if (!Array.isArray(definition.values)) continue;
      for (const value of definition.values) expect(String(parseSwitch(definition, value))).toBe(value);
    }
    const order = switchDefinitions.find((definition) => definition.flag === "order")!;
    expect(() => parseSwitch(order, "id-asc")).toThrow('--order: expected one of startedOn-desc, startedOn-asc, latestMessageOn-desc; got "id-asc"');
  });
});
