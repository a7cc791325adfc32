/** validateEventPayload on a trigger with 20 variables, every variable type represented. */
import { validateEventPayload } from "@bot-conversation/client";
import type { ExternalEventTrigger, VariableType } from "@bot-conversation/types";
import { variableTypes } from "@bot-conversation/types";
import { formatNumber, markdownTable, measure, type Section } from "./report.ts";

const sampleValues: Record<VariableType, unknown> = {
  String: "10482",
  Number: 149.9,
  Boolean: true,
  DateTime: "2026-11-24T12:00:00+03:00",
  ComplexObject: { city: "Kazan", street: "Bauman Street" },
  PersonName: "Pavel Smirnov",
  File: { name: "invoice-10482.pdf", fileUrl: "https://files.example.com/invoices/invoice-10482.pdf" },
};

/** Measures payload validation, for a valid payload and for one with every value wrong. */
export async function payloadValidation(): Promise<Section> {
  const codes = Array.from({ length: 20 }, (_, index) => `variable${index}`);
  const typeOf = (index: number): VariableType => variableTypes[index % variableTypes.length]!;
  const trigger: ExternalEventTrigger = {
    externalEventId: "benchmark-trigger",
    externalEventName: "Benchmark trigger",
    parameters: Object.fromEntries(codes.map((code, index) => [code, { name: code, type: typeOf(index) }])),
  };
  const valid = Object.fromEntries(codes.map((code, index) => [code, sampleValues[typeOf(index)]]));
  const invalid = Object.fromEntries(codes.map((code, index) => [code, typeOf(index) === "String" ? 1 : "wrong"]));
  if (validateEventPayload(trigger, valid).length !== 0) throw new Error("the valid benchmark payload must have no problems");
  if (validateEventPayload(trigger, invalid).length === 0) throw new Error("the invalid benchmark payload must have problems");
  const results = await measure({
    "20 variables, all valid": () => void validateEventPayload(trigger, valid),
    "20 variables, all invalid": () => void validateEventPayload(trigger, invalid),
  });
  return {
    title: "Payload validation",
    method: "tinybench, `validateEventPayload` on a trigger with 20 variables covering every variable type.",
    table: markdownTable(
      ["Payload", "calls/s", "mean µs"],
      results.map((result) => [result.name, formatNumber(result.opsPerSecond), formatNumber(result.meanMs * 1000, 2)]),
    ),
    budgets: [],
  };
}
