import type { ExchangeCheck } from "./types.ts";

/** A request without `X-Token`, or with a wrong one, is refused with 401. */
export const ignoredAuth: ExchangeCheck = (exchange) => {
  if (exchange.case.authentication === "token" || exchange.status === 401) return undefined;
  const sent = exchange.case.authentication === "none" ? "without X-Token" : "with a wrong X-Token";
  return `expected 401 for a request ${sent}; got ${exchange.status}`;
};
