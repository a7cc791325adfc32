/** One exchange the recorder forwarded, as every part of the recording reads it. */

/** A request and the upstream's answer, read whole (both bounded by the recorder). */
export interface RecordedExchange {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Path as the client sent it, without the query string. */
  readonly path: string;
  /** Query parameters as sent (the last value of a repeated one); a secret-looking one is never kept (see `secretQueryParameter`). */
  readonly query: Readonly<Record<string, string>>;
  /** The request body parsed as JSON, or undefined (none, or not JSON). */
  readonly requestJson: unknown;
  /** Whether the request carried a body. */
  readonly hasRequestBody: boolean;
  /** The upstream's status. */
  readonly status: number;
  /** The upstream's headers. */
  readonly headers: Headers;
  /** The upstream's body as text (decoded from its content encoding), `""` when empty. */
  readonly text: string;
  /** The body parsed as JSON, or undefined. */
  readonly json: unknown;
  /** Whether the body parsed as JSON. */
  readonly isJson: boolean;
  /** Whether the body's bytes are not valid UTF-8. */
  readonly invalidUtf8: boolean;
}

/** A query parameter whose value may be a secret (a token sent in the query string): its value is never kept nor written. */
export const secretQueryParameter = (name: string): boolean => /token|secret|password|passwd|auth|key|session|cookie/i.test(name);

/** The exchange in one line for a person: `GET /api/v2/channels/conversations?pageSize=2 → 200` (the caller redacts and sanitizes it). */
export function exchangeLine(exchange: Pick<RecordedExchange, "method" | "path" | "query" | "status">): string {
  const query = new URLSearchParams(Object.entries(exchange.query)).toString();
  return `${exchange.method} ${exchange.path}${query ? `?${query}` : ""} → ${exchange.status}`;
}
