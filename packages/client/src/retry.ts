/** When a GET is retried, and how long to wait before the next attempt. */

/** Defaults of the retry policy. */
export const retryDefaults = {
  /** Retries after the first attempt. */
  maxRetries: 2,
  /** Wait before the first retry, in ms; doubled for each further retry. */
  initialDelayMs: 500,
  /** Longest computed wait, in ms. */
  maxDelayMs: 8_000,
  /** Longest `Retry-After` the client honours, in ms; a longer one falls back to the computed wait. */
  maxRetryAfterMs: 60_000,
} as const;

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

/** Parses `Retry-After` (delay in seconds or an HTTP date) into ms; undefined when absent, invalid or over 60 s. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value?.trim()) return undefined;
  const seconds = Number(value);
  const delay = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  // Past dates mean "now"; a wait over the cap or unparsable (NaN) is not honoured (the computed backoff applies instead).
  return delay <= retryDefaults.maxRetryAfterMs ? Math.max(0, delay) : undefined;
}

/** Wait before retry number `retry` (1 for the first): `Retry-After` if usable, else exponential backoff with jitter. */
export function retryDelay(retry: number, retryAfter: string | null, random: () => number = Math.random, now?: number): number {
  // Jitter (up to 25% shorter) keeps many clients from retrying in lockstep.
  return parseRetryAfter(retryAfter, now) ?? Math.min(retryDefaults.initialDelayMs * 2 ** (retry - 1), retryDefaults.maxDelayMs) * (1 - 0.25 * random());
}
