import { credentialChannelsFamily, credentialNearMissesFamily, credentialOf } from "../credentials.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { statedServerError } from "./response.ts";
import { type ExchangeCheck, notApplicable, notJudged } from "./types.ts";

/**
 * `ignored_auth`: a request with a bad credential (`credentials.ts`: no `X-Token`, a near miss of the
 * token, or the token on another channel than the header) is refused with 401. The seed's 401 is
 * unconditional: a request naming an unknown bot, trigger or conversation with a bad token is 401 too,
 * so a 404 there (the resource looked up before the token) fails. A search, whose statuses other than success the seed
 * does not show, may refuse a bad credential with any client error (403, say): only an answer that is not a refusal fails.
 */
export const ignoredAuth: ExchangeCheck = (exchange, { description }) => {
  if (exchange.case.authentication === "token") return notApplicable;
  const what = credentialOf(exchange.case.authentication).what;
  if (exchange.status === 401) return undefined;
  // The seed states the 401 for operations 2 and 3 only ("stated for operations 2 and 3") and shows no search status but
  // success: a search refused with another client error has still required the token, a faithful reading.
  if (exchange.case.operationId === "searchConversations" && exchange.status >= 400 && exchange.status < 500) return undefined;
  // A 5xx the seed states for the operation (the fire's 500 for values that fail validation) is an answer the seed gives
  // instead of its 401 (a server that validated the payload took the request); any other 5xx is not_a_server_error's to
  // report: the token may never have been read.
  if (exchange.status >= 500 && !statedServerError(description, exchange.case.operationId, exchange.status))
    return notJudged(`a ${exchange.status} for a request ${what}: not_a_server_error reports it`);
  if (exchange.status === 404 && exchange.case.family === credentialBeforeLookupFamily)
    return `expected 401 for a request ${what} naming an unknown resource (the seed's 401 does not wait for the look-up); got 404`;
  return `expected 401 for a request ${what}; got ${exchange.status}`;
};

/** The `credential-before-lookup` probe family, judged on its own tagged probes. */
export const credentialBeforeLookupFamily = {
  name: "credential-before-lookup",
  probes: "A wrong token naming an unknown bot, trigger or conversation: the seed's 401 is unconditional, so a 404 (the resource looked up first) fails.",
  rules: ["auth-401", "errors-triggers-401", "errors-fire-401"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The catalog's entry of `ignored_auth`. */
export const ignoredAuthEntry = {
  name: "ignored_auth",
  description: "No token, a wrong or empty one, or one in the query string instead of the header, is refused with 401.",
  rule: "Seed, Authentication 1-3: every operation requires the X-Token header, the only method listed; a missing or invalid token gives 401.",
  onEvery: "response",
  check: ignoredAuth,
  phases: ["every operation: authentication"],
  families: [credentialNearMissesFamily, credentialChannelsFamily, credentialBeforeLookupFamily],
} as const satisfies CatalogEntry;
