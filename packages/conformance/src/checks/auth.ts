import { notApplicable, type ExchangeCheck } from "./types.ts";

const sentences = {
  none: "without X-Token",
  wrong: "with a wrong X-Token",
  empty: "with an empty X-Token",
  query: "with the token in the query string instead of the X-Token header",
} as const;

/** A request without `X-Token`, with a wrong or empty one, or with the token only in the query string is refused with 401. */
export const ignoredAuth: ExchangeCheck = (exchange) => {
  if (exchange.case.authentication === "token") return notApplicable;
  if (exchange.status === 401) return undefined;
  return `expected 401 for a request ${sentences[exchange.case.authentication]}; got ${exchange.status}`;
};
