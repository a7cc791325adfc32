import type { CatalogEntry } from "./entry.ts";
import { type ExchangeCheck, notApplicable, notJudged } from "./types.ts";

/**
 * A 405 for a method the description does not list on a path carries `Allow` listing the documented methods
 * (RFC 9110 §15.5.6: a 405 MUST carry `Allow`). Any other answer, a 2xx included, is not judged: the seed lists
 * each operation's method and does not say how another one is answered (the `undocumented_methods` finding says).
 */
export const unsupportedMethod: ExchangeCheck = (exchange) => {
  const documented = exchange.case.documentedMethods;
  if (documented === undefined || exchange.status === 0) return notApplicable;
  const { method } = exchange.case;
  if (exchange.status !== 405)
    return notJudged(
      `${method} on a path that lists ${documented.join(", ")} answered ${exchange.status}: the seed does not say how a method it does not list is answered (see the undocumented_methods finding)`,
    );
  const allow = exchange.headers.get("allow");
  if (allow === null) return `expected an Allow header with the 405 for ${method}; got none`;
  const allowed = allow.split(",").map((name) => name.trim().toUpperCase());
  const missing = documented.filter((name) => !allowed.includes(name));
  return missing.length === 0 ? undefined : `expected Allow to list ${documented.join(", ")}; got Allow: ${allow}`;
};

/** The catalog's entry of `unsupported_method`. */
export const unsupportedMethodEntry = {
  name: "unsupported_method",
  description: "A 405 for a method the description does not list on a path carries Allow; any other answer is reported, not judged.",
  rule: "RFC 9110 §15.5.6: a 405 MUST carry Allow; the seed lists each operation's method and does not say how another is answered (the undocumented_methods finding).",
  onEvery: "response",
  check: unsupportedMethod,
  phases: ["every path: Accept and undocumented methods"],
  families: [],
} as const satisfies CatalogEntry;
