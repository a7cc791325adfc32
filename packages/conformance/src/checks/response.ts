import { mediaTypeOf } from "../case.ts";
import { operationOf } from "../description.ts";
import type { ExchangeCheck } from "./types.ts";

/** The one 5xx the description documents as a rule: the fire operation's payload-validation 500. */
const documentedServerError = (operationId: string, status: number): boolean => operationId === "fireExternalEvent" && status === 500;

/** No 5xx, except the fire operation's documented payload-validation 500. */
export const notAServerError: ExchangeCheck = (exchange) =>
  exchange.status >= 500 && !documentedServerError(exchange.case.operationId, exchange.status)
    ? `expected no server error; got ${exchange.status}`
    : undefined;

/** The status is one the description documents for the operation (exactly, by range, or `default`). */
export const statusCodeConformance: ExchangeCheck = (exchange, { description }) => {
  if (exchange.case.operationId === "export") return exchange.status === 200 ? undefined : `expected 200 from the export route; got ${exchange.status}`;
  const operation = operationOf(description, exchange.case.operationId);
  if (description.documentedResponse(operation, exchange.status)) return undefined;
  return `expected one of the documented statuses ${[...operation.responses.keys()].join(", ")}; got ${exchange.status}`;
};

/** A response with a body carries a documented media type. */
export const contentTypeConformance: ExchangeCheck = (exchange, { description }) => {
  if (exchange.text === "") return undefined;
  const mediaTypes =
    exchange.case.operationId === "export"
      ? ["application/json"]
      : description.documentedResponse(operationOf(description, exchange.case.operationId), exchange.status)?.mediaTypes;
  if (!mediaTypes) return undefined;
  const received = mediaTypeOf(exchange.headers);
  if (mediaTypes.length === 0) return `expected no body for ${exchange.status}; got ${exchange.text.length} bytes of ${received || "untyped content"}`;
  return mediaTypes.includes(received) ? undefined : `expected Content-Type ${mediaTypes.join(" or ")}; got ${received || "none"}`;
};

/** The body is valid against the documented schema (for the export route, the closed export model). */
export const responseSchemaConformance: ExchangeCheck = (exchange, { description }) => {
  const pointer =
    exchange.case.operationId === "export"
      ? exchange.status === 200
        ? "#/components/schemas/ConversationExport"
        : undefined
      : description.documentedResponse(operationOf(description, exchange.case.operationId), exchange.status)?.schemaPointer;
  if (!pointer || exchange.text === "") return undefined;
  if (!exchange.isJson) return `expected a JSON body valid against ${pointer}; got a body that is not JSON`;
  const problems = description.problemsOf(pointer, exchange.json);
  return problems.length === 0 ? undefined : `expected a body valid against ${pointer}; got: ${problems.slice(0, 5).join("; ")}`;
};
