import { type ExternalEventTrigger, variableTypes } from "@bot-conversation/types";
import { describe, expect, it } from "vitest";
import { FormValueError, toPayload, toVariableValue } from "../src/payload.ts";

describe("toVariableValue: a form's text as the service's table of variable types writes each value", () => {
  it.each([
    ["String", { value: " 10482 " }, "10482"],
    ["Number", { value: "149.90" }, 149.9],
    ["Number", { value: "0" }, 0],
    ["Boolean", { value: "true" }, true],
    ["Boolean", { value: "false" }, false],
    ["DateTime", { value: "2026-11-21T10:00:00Z" }, "2026-11-21T10:00:00.000Z"],
    ["ComplexObject", { value: '{"street": "Main St 1"}' }, { street: "Main St 1" }],
    // JSON that is not an object is sent: the service judges it (and answers 500 naming the variable).
    ["ComplexObject", { value: '"nowhere"' }, "nowhere"],
    ["PersonName", { value: "Jane Doe" }, "Jane Doe"],
    [
      "File",
      { name: "invoice.pdf", fileUrl: "https://files.example.com/invoice.pdf" },
      { name: "invoice.pdf", fileUrl: "https://files.example.com/invoice.pdf" },
    ],
    ["AType/NotKnown", { value: "as typed" }, "as typed"],
  ] as const)("%s %j is %j", (type, inputs, value) => {
    expect(toVariableValue(type, inputs)).toEqual(value);
  });

  it.each([...variableTypes, "AType/NotKnown"])("%s with empty inputs is not sent", (type) => {
    expect(toVariableValue(type, { value: "", name: "", fileUrl: "" })).toBeUndefined();
    expect(toVariableValue(type, {})).toBeUndefined();
  });
});

describe("toPayload", () => {
  const trigger: ExternalEventTrigger = {
    externalEventId: "order-status-changed",
    externalEventName: "Order status changed",
    parameters: { orderTotal: { name: "Order total", type: "Number" }, deliveryAddress: { name: "Delivery address", type: "ComplexObject" } },
  };

  it("holds only the variables the trigger declares and the form filled", () => {
    expect(toPayload(trigger, { orderTotal: { value: "12" }, deliveryAddress: { value: "" }, stranger: { value: "x" } })).toEqual({ orderTotal: 12 });
  });

  it("names the variable whose JSON does not parse, and sends nothing", () => {
    expect(() => toPayload(trigger, { deliveryAddress: { value: "{street" } })).toThrow(new FormValueError("Delivery address (deliveryAddress) is not JSON"));
  });
});
