// Generated from src/date-time.ts of @bot-conversation/openapi by scripts/generate-enums.ts: do not edit.

/**
 * `@bot-conversation/openapi/date-time`: the one rule for the description's `format: date-time`
 * (search filters, `startedOn`, `DateTime` variables). It lives beside the description, which states
 * it (README, Decisions: "Dates"), so that every reader shares it: the Ajv factory
 * (`@bot-conversation/openapi/ajv`) checks `date-time` with it, and `@bot-conversation/types` carries
 * it as a generated copy of this file, which the client re-exports as its `parseDateTime` (so the
 * client does not depend on this package, nor on Ajv). It imports nothing: a bundle of the client
 * carries these few lines only.
 */

/**
 * The one rule for dates, of search filters and of `DateTime` variables alike: an ISO 8601 date and
 * time with seconds and a UTC offset, as RFC 3339 profiles it (`2026-11-20T09:15:02+03:00`, `...Z`),
 * naming one instant. A date alone, a time without an offset, an hour-only offset (`+05`), a leap
 * second (`:60`), hour 24 and a day the month lacks are refused. Returns epoch milliseconds, or `NaN`.
 */
export function parseDateTime(value: unknown): number {
  const date = typeof value === "string" && /^(\d{4}-\d\d-\d\d)t(?!24)\d\d(:\d\d){2}(\.\d+)?(z|[+-]\d\d:\d\d)$/i.exec(value)?.[1];
  // Date.parse refuses minute 60 and second 60, and rolls 30 February over into March: the date must come back unchanged.
  return date && new Date(date).toJSON()?.startsWith(date) ? Date.parse(value as string) : NaN;
}
