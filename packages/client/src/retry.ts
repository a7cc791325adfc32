/** When a GET is retried, and how long to wait before the next attempt. */

/** Wait before the first retry, in ms; doubled for each further retry. */
const initialDelayMs = 500;
/** Longest computed wait, in ms. */
const maxDelayMs = 8_000;
/** Longest `Retry-After` the client honours, in ms; a longer one falls back to the computed wait. */
const maxRetryAfterMs = 60_000;

const retryableStatuses = [
  408, // the server gave up waiting for the request; a fresh attempt can succeed
  429, // rate limited: the server asks to come back later (see Retry-After)
  502, // a gateway could not reach the service, usually a transient hop failure
  503, // the service is overloaded or restarting and says so
  504, // a gateway timed out waiting for the service; reading again is safe
];

/** Whether a GET that got this status is worth another attempt; any other status will not change by asking again. */
export function isRetryableStatus(status: number): boolean {
  return retryableStatuses.includes(status);
}

/**
 * The one reading of `Retry-After` (RFC 9110 §10.2.3), in ms: non-negative whole seconds (`120`) or an
 * HTTP date in its IMF-fixdate form (`Fri, 20 Nov 2026 09:00:10 GMT`, its weekday right), counted from
 * `now`; a past date is 0. Undefined when absent, of any other form (`-1`, `1.5`, `0x3`, `1e0`, the
 * obsolete date forms) or over `max` (the client's 60 s; the computed backoff then applies). The
 * conformance kit reads the header here too, with no bound (`Infinity`), to wait out and report what a
 * server asked.
 */
export function parseRetryAfter(value: string | null | undefined, max = maxRetryAfterMs, now = Date.now()): number | undefined {
  // IMF-fixdate is exactly the form `toUTCString` writes: a date is one when it reads back unchanged.
  const date = new Date(value!);
  // `test` reads null and undefined as the words "null" and "undefined", which it does not match.
  const delay = /^\d+$/.test(value!) ? +value! * 1000 : date.toUTCString() === value ? +date - now : NaN;
  // Past dates mean "now"; a wait over the bound or unparsable (NaN) is not honoured.
  return delay <= max ? Math.max(0, delay) : undefined;
}

/** Wait before retry number `retry` (1 for the first): `Retry-After` if usable, else exponential backoff with jitter. */
export function retryDelay(retry: number, retryAfter: string | null | undefined): number {
  // Jitter (up to 25% shorter) keeps many clients from retrying in lockstep.
  return parseRetryAfter(retryAfter) ?? Math.min(initialDelayMs * 2 ** (retry - 1), maxDelayMs) * (1 - Math.random() / 4);
}
