import type { ExchangeCheck } from "./types.ts";

/** A request the description rules out is refused with a 4xx (a 5xx is `not_a_server_error`'s to report). */
export const negativeDataRejection: ExchangeCheck = (exchange) =>
  exchange.status < 300 ? `expected a 4xx for a request the description rules out; got ${exchange.status}` : undefined;

/**
 * A request the description allows is accepted: no 4xx but 404, which is the service's answer for an
 * unknown bot, trigger or conversation (a 5xx is `not_a_server_error`'s to report).
 */
export const positiveDataAcceptance: ExchangeCheck = (exchange) =>
  exchange.status >= 400 && exchange.status < 500 && exchange.status !== 404
    ? `expected a request valid by the description to be accepted; got ${exchange.status}`
    : undefined;
