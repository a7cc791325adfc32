import { type ExchangeCheck, notApplicable, notJudged } from "./types.ts";

/**
 * A method the description does not list on a path is not performed: a 2xx fails. A 405 must carry
 * `Allow` listing the documented methods (RFC 9110 §15.5.6: a 405 MUST carry `Allow`). Another
 * refusal (404, 400, 501) is not judged: the seed does not say how an unlisted method is answered.
 */
export const unsupportedMethod: ExchangeCheck = (exchange) => {
  const documented = exchange.case.documentedMethods;
  if (documented === undefined || exchange.status === 0) return notApplicable;
  const { method } = exchange.case;
  if (exchange.status < 400)
    return `expected 405 for ${method}, which the description does not list on this path (it lists ${documented.join(", ")}); got ${exchange.status}`;
  if (exchange.status !== 405)
    return notJudged(
      `${method} on a path that lists ${documented.join(", ")} answered ${exchange.status}: the seed does not say how an unlisted method is refused`,
    );
  const allow = exchange.headers.get("allow");
  if (allow === null) return `expected an Allow header with the 405 for ${method}; got none`;
  const allowed = allow.split(",").map((name) => name.trim().toUpperCase());
  const missing = documented.filter((name) => !allowed.includes(name));
  return missing.length === 0 ? undefined : `expected Allow to list ${documented.join(", ")}; got Allow: ${allow}`;
};
