import { notApplicable, type ExchangeCheck } from "./types.ts";

/**
 * A method the description does not list on a path is refused with 405 Method Not Allowed, whose
 * `Allow` header lists the documented methods (RFC 9110 §15.5.6: a 405 MUST carry `Allow`).
 */
export const unsupportedMethod: ExchangeCheck = (exchange) => {
  const documented = exchange.case.documentedMethods;
  if (documented === undefined) return notApplicable;
  const { method } = exchange.case;
  if (exchange.status !== 405) return `expected 405 for ${method}, which the description does not list on this path (it lists ${documented.join(", ")}); got ${exchange.status}`;
  const allow = exchange.headers.get("allow");
  if (allow === null) return `expected an Allow header with the 405 for ${method}; got none`;
  const allowed = allow.split(",").map((name) => name.trim().toUpperCase());
  const missing = documented.filter((name) => !allowed.includes(name));
  return missing.length === 0 ? undefined : `expected Allow to list ${documented.join(", ")}; got Allow: ${allow}`;
};
