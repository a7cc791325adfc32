import { mediaTypeOf } from "../case.ts";
import { operationOf } from "../description.ts";
import type { CatalogEntry } from "./entry.ts";
import { type ExchangeCheck, notApplicable, notJudged } from "./types.ts";

/**
 * A request whose `Accept` names other media types than JSON gets 406 Not Acceptable, or an answer in
 * a media type the description documents for that status (RFC 9110 lets a server ignore `Accept`): a
 * server that answers in the undocumented type it was asked for fails. An undocumented type that was
 * not asked for is `content_type_conformance`'s to report, not this check's.
 */
export const acceptNegotiation: ExchangeCheck = (exchange, { description }) => {
  if (exchange.case.accept === undefined || exchange.status === 0) return notApplicable;
  if (exchange.status === 406) return undefined;
  const response = description.documentedResponse(operationOf(description, exchange.case.operationId), exchange.status);
  if (!response) return notJudged(`status ${exchange.status} is not documented (status_code_conformance)`);
  const documented = response.mediaTypes;
  const received = mediaTypeOf(exchange.headers);
  if (exchange.text === "" || documented.includes(received)) return undefined;
  const asked = exchange.case.accept.split(",").map((range) => range.split(";")[0]!.trim().toLowerCase());
  if (!asked.includes(received)) return notJudged(`answered in ${received || "no media type"}, neither asked for nor documented (content_type_conformance)`);
  return `expected 406 or a documented media type (${documented.join(", ") || "none documented"}) for Accept: ${exchange.case.accept}; got ${exchange.status} with ${received || "no Content-Type"}`;
};

/** The catalog's entry of `accept_negotiation`. */
export const acceptNegotiationEntry = {
  name: "accept_negotiation",
  description: "An Accept header without JSON gets 406 or a documented media type.",
  rule: "RFC 9110 §12.5.1 (a server may ignore Accept or answer 406) and the description's media types.",
  onEvery: "response",
  check: acceptNegotiation,
  phases: ["every path: Accept and undocumented methods"],
  families: [],
} as const satisfies CatalogEntry;
