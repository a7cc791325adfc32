import type { Exchange } from "../case.ts";
import type { Description } from "../description.ts";

/** What checks know besides the exchange. */
export interface CheckContext {
  /** The description the server is checked against. */
  readonly description: Description;
  /** `pageIndex` of the first page, as the server reports it for a request without one (0 or 1). */
  readonly pageBase: number;
}

/** A check of one exchange: returns what was wrong (expected vs received), or undefined when it holds. */
export type ExchangeCheck = (exchange: Exchange, context: CheckContext) => string | undefined;

/** Shows a value in a failure message, cut to 120 characters. */
export function shown(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 120)}...` : text;
}
