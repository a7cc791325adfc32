import { operationOf } from "../description.ts";
import type { CatalogEntry } from "./entry.ts";
import { type ExchangeCheck, notApplicable } from "./types.ts";

/** Every header the description documents for the response is there (when required) and valid against its schema. */
export const responseHeadersConformance: ExchangeCheck = (exchange, { description }) => {
  const operation = description.operations.get(exchange.case.operationId);
  const documented = operation && description.documentedResponse(operationOf(description, exchange.case.operationId), exchange.status);
  if (!documented || documented.headers.length === 0) return notApplicable;
  const problems = documented.headers.flatMap((header) => {
    const value = exchange.headers.get(header.name);
    if (value === null) return header.required ? [`expected the header ${header.name}; got none`] : [];
    const typed = header.schema["type"] === "integer" || header.schema["type"] === "number" ? Number(value) : value;
    const invalid = header.schemaPointer ? description.problemsOf(header.schemaPointer, typed) : [];
    return invalid.length === 0 ? [] : [`expected ${header.name} valid against its schema; got ${JSON.stringify(value)} (${invalid.join("; ")})`];
  });
  return problems.length === 0 ? undefined : problems.join("; ");
};

/** The catalog's entry of `response_headers_conformance`. */
export const responseHeadersConformanceEntry = {
  name: "response_headers_conformance",
  description: "Every response header the description documents is present and valid.",
  rule: "Description: the headers of each response.",
  onEvery: "response",
  check: responseHeadersConformance,
  phases: [],
  families: [],
} as const satisfies CatalogEntry;
