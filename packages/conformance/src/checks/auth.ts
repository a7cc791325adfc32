import { type ExchangeCheck, notApplicable, notJudged } from "./types.ts";

const sentences = {
  none: "without X-Token",
  wrong: "with a wrong X-Token",
  empty: "with an empty X-Token",
  query: "with the token in the query string instead of the X-Token header",
  case: "with the token in another letter case",
  spaced: "with a space inside the token",
} as const;

/** A request without `X-Token`, with a wrong, empty, re-cased or spaced one, or with the token only in the query string is refused with 401. */
export const ignoredAuth: ExchangeCheck = (exchange) => {
  if (exchange.case.authentication === "token") return notApplicable;
  if (exchange.status === 401) return undefined;
  // A 5xx is not_a_server_error's to report: the token may never have been read.
  if (exchange.status >= 500) return notJudged(`a ${exchange.status} for a request ${sentences[exchange.case.authentication]}: not_a_server_error reports it`);
  // The seed states no order between 401 and 404: a lookup before the token check is a finding (auth_order), not a failure.
  if (exchange.status === 404 && exchange.case.unknownTarget)
    return notJudged(
      "a 404 for a request naming an unknown resource with a bad token: the seed states no order between 401 and 404 (see the auth_order finding)",
    );
  return `expected 401 for a request ${sentences[exchange.case.authentication]}; got ${exchange.status}`;
};
