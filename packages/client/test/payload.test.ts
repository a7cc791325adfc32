import type { ExternalEventTrigger } from "@bot-conversation/types";
import { describe, expect, test } from "vitest";
import { parseDateTime, platformConversationId, validateEventPayload } from "../src/payload.js";

const trigger: ExternalEventTrigger = {
  externalEventId: "order-status-changed",
  externalEventName: "Order status changed",
  parameters: {
    orderNumber: { name: "Order number", type: "String" },
    orderTotal: { name: "Order total", type: "Number" },
    isPaid: { name: "Paid", type: "Boolean" },
    deliveryDate: { name: "Delivery date", type: "DateTime" },
    deliveryAddress: { name: "Delivery address", type: "ComplexObject" },
    courierName: { name: "Courier", type: "PersonName" },
    invoice: { name: "Invoice", type: "File" },
  },
};

describe("validateEventPayload accepts each variable type's format", () => {
  test.each([
    ["orderNumber", "10482"],
    ["orderTotal", 149.9],
    ["orderTotal", 0],
    ["isPaid", false],
    ["deliveryDate", "2026-11-24T12:00:00+03:00"],
    ["deliveryDate", "2026-11-24T09:00:00.125Z"],
    ["deliveryDate", "2024-02-29T23:59:59-05:30"],
    ["deliveryDate", "2026-11-24t09:00:00z"],
    ["deliveryAddress", { city: "Kazan" }],
    ["deliveryAddress", {}],
    ["courierName", "Pavel Smirnov"],
    ["invoice", { name: "invoice.pdf", fileUrl: "https://files.example.com/invoice.pdf" }],
    ["invoice", { name: "scan 2026.11.jpeg", fileUrl: "https://files.example.com/d?id=7" }],
  ])("%s = %j", (variableCode, value) => {
    expect(validateEventPayload(trigger, { [variableCode]: value })).toEqual([]);
  });
});

describe("validateEventPayload rejects values of the wrong format", () => {
  test.each([
    ["orderNumber", "String", 10482, "10482"],
    ["orderTotal", "Number", "149.9", '"149.9"'],
    ["orderTotal", "Number", Number.NaN, "NaN"],
    ["orderTotal", "Number", Number.POSITIVE_INFINITY, "Infinity"],
    ["isPaid", "Boolean", "true", '"true"'],
    ["deliveryDate", "DateTime", "next Tuesday", '"next Tuesday"'],
    ["deliveryDate", "DateTime", "2026-13-45T99:00:00Z", '"2026-13-45T99:00:00Z"'],
    ["deliveryDate", "DateTime", 1732435200000, "1732435200000"],
    // One date rule (the sandbox's search filters too): seconds and an offset, one real instant.
    ["deliveryDate", "DateTime", "2026-11-24", '"2026-11-24"'],
    ["deliveryDate", "DateTime", "2026-11-24T12:00:00", '"2026-11-24T12:00:00"'],
    ["deliveryDate", "DateTime", "2026-11-24T12:00Z", '"2026-11-24T12:00Z"'],
    ["deliveryDate", "DateTime", "2026-11-24T12:00:00+05", '"2026-11-24T12:00:00+05"'],
    ["deliveryDate", "DateTime", "2026-12-31T23:59:60Z", '"2026-12-31T23:59:60Z"'],
    ["deliveryDate", "DateTime", "2026-12-31T24:00:00Z", '"2026-12-31T24:00:00Z"'],
    ["deliveryDate", "DateTime", "2026-02-29T10:00:00Z", '"2026-02-29T10:00:00Z"'],
    ["deliveryDate", "DateTime", "2026-11-24T12:00:00+25:00", '"2026-11-24T12:00:00+25:00"'],
    ["deliveryAddress", "ComplexObject", [], "[]"],
    ["deliveryAddress", "ComplexObject", null, "null"],
    ["deliveryAddress", "ComplexObject", "Kazan", '"Kazan"'],
    ["courierName", "PersonName", { first: "Pavel" }, '{"first":"Pavel"}'],
    ["courierName", "PersonName", "", '""'],
    ["courierName", "PersonName", "   ", '"   "'],
    ["invoice", "File", { name: "invoice.pdf" }, '{"name":"invoice.pdf"}'],
    ["invoice", "File", { name: "invoice.pdf", fileUrl: 7 }, '{"name":"invoice.pdf","fileUrl":7}'],
    ["invoice", "File", "https://files.example.com/invoice.pdf", '"https://files.example.com/invoice.pdf"'],
    ["invoice", "File", { name: "a.pdf", fileUrl: "not a url" }, '{"name":"a.pdf","fileUrl":"not a url"}'],
    ["invoice", "File", { name: "a", fileUrl: "https://f.io" }, '{"name":"a","fileUrl":"https://f.io"}'],
    ["invoice", "File", { name: ".pdf", fileUrl: "https://f.io" }, '{"name":".pdf","fileUrl":"https://f.io"}'],
  ])("%s (%s) = %j", (variableCode, expectedType, value, received) => {
    const problems = validateEventPayload(trigger, { [variableCode]: value });
    expect(problems).toEqual([{ variableCode, expectedType, received, message: expect.stringContaining(`expected ${expectedType}`) }]);
    expect(problems[0]?.message).toContain(received);
  });
});

test("a File's message names both of its fields, so a missing fileUrl is named", () => {
  expect(validateEventPayload(trigger, { invoice: { name: "invoice.pdf" } })[0]?.message).toBe(
    'invoice: expected File (name with extension, fileUrl a URL); got {"name":"invoice.pdf"}',
  );
});

test("parseDateTime gives the instant of a valid date-time, NaN otherwise", () => {
  expect(parseDateTime("2026-11-20T09:15:02+03:00")).toBe(Date.UTC(2026, 10, 20, 6, 15, 2));
  expect(parseDateTime("2026-11-20T06:15:02.5Z")).toBe(Date.UTC(2026, 10, 20, 6, 15, 2, 500));
  expect(parseDateTime("2026-11-20")).toBeNaN();
  expect(parseDateTime(20_261_120)).toBeNaN();
});

describe("validateEventPayload reports every problem", () => {
  test("unknown codes and wrong types together, nothing dropped", () => {
    const problems = validateEventPayload(trigger, { orderTotal: "x", isPaid: 1, colour: "red", __proto__x: 1, orderNumber: "ok" });
    expect(problems.map((problem) => [problem.variableCode, problem.expectedType])).toEqual([
      ["orderTotal", "Number"],
      ["isPaid", "Boolean"],
      ["colour", null],
      ["__proto__x", null],
    ]);
    expect(problems[2]?.message).toBe('colour: not a variable of trigger order-status-changed; got "red"');
  });

  test("inherited names such as toString are unknown codes, not variables", () => {
    expect(validateEventPayload(trigger, { toString: "x" })).toHaveLength(1);
  });

  test("a type this client does not know (a newer service's) is not checked: any value passes, the service judges it", () => {
    const newer = { ...trigger, parameters: { ...trigger.parameters, price: { name: "Price", type: "Money" } } } as unknown as ExternalEventTrigger;
    expect(validateEventPayload(newer, { price: { amount: 10, currency: "EUR" } })).toEqual([]);
    expect(validateEventPayload(newer, { price: "10 EUR", orderTotal: "x" }).map((problem) => problem.variableCode)).toEqual(["orderTotal"]);
  });

  test("a Date is not a DateTime value: the payload carries ISO 8601 strings (toISOString())", () => {
    expect(validateEventPayload(trigger, { deliveryDate: new Date("2026-11-24T12:00:00Z") })).toHaveLength(1);
  });

  test("no payload is valid", () => {
    expect(validateEventPayload(trigger, undefined)).toEqual([]);
  });
});

describe("what was given, as a problem shows it", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic["self"] = cyclic;
  test.each([
    ["a bigint", 10n, "10"],
    ["undefined", undefined, "undefined"],
    ["a function", () => 1, "function"],
    ["a cyclic object", cyclic, "object"],
  ])("%s", (_label, value, received) => {
    expect(validateEventPayload(trigger, { orderNumber: value })).toEqual([
      { variableCode: "orderNumber", expectedType: "String", received, message: `orderNumber: expected String; got ${received}` },
    ]);
  });
});

test("a long value is cut at 40 characters", () => {
  expect(validateEventPayload(trigger, { orderTotal: "9".repeat(50) })[0]?.received).toBe(`"${"9".repeat(39)}...`);
});

describe("platformConversationId", () => {
  test("builds <SESSION_ID>|livechat", () => {
    expect(platformConversationId("8d41b7a2-61c4-4d9e-b0f3-5a7c2e9d1b46")).toBe("8d41b7a2-61c4-4d9e-b0f3-5a7c2e9d1b46|livechat");
  });
  test.each(["", "   "])("rejects %j", (sessionId) => {
    expect(() => platformConversationId(sessionId)).toThrow(/sessionId: expected a non-empty string/);
  });
});
