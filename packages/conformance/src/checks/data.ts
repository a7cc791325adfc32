import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { pageOf } from "./paging.ts";
import { type ExchangeCheck, notJudged, shown } from "./types.ts";

/** A request the description rules out is refused with a 4xx (a 5xx is `not_a_server_error`'s to report). */
export const negativeDataRejection: ExchangeCheck = (exchange) =>
  exchange.status < 300 ? `expected a 4xx for a request the description rules out; got ${exchange.status}` : undefined;

/** `negative_data_rejection` for a request whose one bad value is known: the message quotes it. */
export const rejectionOf =
  (what: string, value: unknown): ExchangeCheck =>
  (exchange) =>
    exchange.status < 300 ? `expected a 4xx for ${what} = ${shown(value)}, which the description rules out; got ${exchange.status}` : undefined;

/** `negative_data_rejection` for a `pageSize` one past the accepted `maximum`: refused (4xx), or capped at the maximum. */
export const pastMaximum =
  (maximum: number): ExchangeCheck =>
  (exchange) => {
    const answer = pageOf(exchange);
    if (exchange.status >= 400 && exchange.status < 500) return undefined;
    if (answer && answer.pageSize <= maximum && answer.items.length <= maximum) return undefined;
    return `expected pageSize=${maximum + 1}, past the maximum ${maximum}, to be refused (4xx) or capped at ${maximum}; got ${exchange.status}${answer ? ` with pageSize ${answer.pageSize} and ${answer.items.length} items` : ""}`;
  };

/**
 * A request the description allows is accepted: no 4xx but 404, which is the service's answer for an
 * unknown bot, trigger or conversation (a 5xx is `not_a_server_error`'s to report).
 */
export const positiveDataAcceptance: ExchangeCheck = (exchange, { defaultPageSize, decisions }) => {
  if (exchange.status < 400 || exchange.status >= 500 || exchange.status === 404) return undefined;
  const pageSize = Number(exchange.case.query["pageSize"]);
  // The maximum page size is an open point: a size above the server's own default may be past it (discovery reports the maximum).
  if (decisions.maxPageSize === undefined && defaultPageSize !== undefined && pageSize > defaultPageSize) {
    return notJudged(
      `pageSize ${pageSize}, above the default ${defaultPageSize}, was refused: the service states no maximum page size (see the max_page_size finding)`,
    );
  }
  return `expected a request valid by the description to be accepted; got ${exchange.status}${exchange.isJson ? ` ${shown(exchange.json)}` : ""}`;
};

/** The `request-invalid-values` probe family. */
export const requestInvalidValuesFamily = {
  name: "request-invalid-values",
  probes:
    "Fire bodies missing a required part, with a part of another type or empty: a 4xx (a search with a value the description rules out is sent too, but only reported: the seed shows no search status but success).",
  rules: ["fire-conversation-id", "fire-external-conversation-id", "fire-external-event-id"],
} as const satisfies ProbeFamily;

/** The `request-valid-values` probe family. */
export const requestValidValuesFamily = {
  name: "request-valid-values",
  probes: "Generated searches and trigger lists the description allows: accepted.",
  rules: ["search-parameters-optional", "triggers-path-parameter", "errors-triggers-200"],
} as const satisfies ProbeFamily;

/** The catalog's entry of `negative_data_rejection`. */
export const negativeDataRejectionEntry = {
  name: "negative_data_rejection",
  description: "Values the description rules out are refused with a 4xx.",
  rule: "Description: the parameter and request body schemas (a value they rule out is no valid request).",
  phases: ["searchConversations: edges", "fireExternalEvent: invalid requests"],
  families: [requestInvalidValuesFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `positive_data_acceptance`. */
export const positiveDataAcceptanceEntry = {
  name: "positive_data_acceptance",
  description: "Values the description allows are accepted (2xx, or 404 for an unknown resource).",
  rule: "Description: the parameter and request body schemas (a value they allow is a valid request).",
  phases: ["searchConversations: edges", "searchConversations: generated requests", "listExternalEventTriggers: generated requests"],
  families: [requestValidValuesFamily],
} as const satisfies CatalogEntry;
