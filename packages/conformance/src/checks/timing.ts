import { type ExchangeCheck, notApplicable } from "./types.ts";

/** Every response arrives within `--max-response-time` (opt-in, as in Schemathesis; the service states no time-outs). */
export const maxResponseTime: ExchangeCheck = (exchange, { maxResponseTimeMs }) => {
  if (maxResponseTimeMs === undefined) return notApplicable;
  const elapsed = Math.round(exchange.elapsedMs);
  return elapsed <= maxResponseTimeMs ? undefined : `expected a response within ${maxResponseTimeMs} ms (--max-response-time); got one after ${elapsed} ms`;
};
