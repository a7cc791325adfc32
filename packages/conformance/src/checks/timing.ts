import type { CatalogEntry } from "./entry.ts";
import { type ExchangeCheck, notApplicable } from "./types.ts";

/** Every response arrives within `--max-response-time` (opt-in, as in Schemathesis; the service states no time-outs). */
export const maxResponseTime: ExchangeCheck = (exchange, { maxResponseTimeMs }) => {
  if (maxResponseTimeMs === undefined) return notApplicable;
  const elapsed = Math.round(exchange.elapsedMs);
  return elapsed <= maxResponseTimeMs ? undefined : `expected a response within ${maxResponseTimeMs} ms (--max-response-time); got one after ${elapsed} ms`;
};

/** The catalog's entry of `max_response_time`. */
export const maxResponseTimeEntry = {
  name: "max_response_time",
  description: "Every response arrives within --max-response-time (opt-in).",
  rule: "The bound you set with --max-response-time (the seed states no time-outs).",
  onEvery: "response",
  check: maxResponseTime,
  phases: [],
  families: [],
} as const satisfies CatalogEntry;
