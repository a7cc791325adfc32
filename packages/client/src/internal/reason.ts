import { describeValue } from "./describe.js";

/**
 * The end of a failure's message: `: ` and a short reason from the body, quoted as JSON (so a line break
 * stays `\n` on the message's one line) and cut at 120 characters; the whole body stays on the error.
 * The reason is the first validation entry's message (Prism's `validation: [{ location, message:
 * "Request query parameter status must be …" }]`), else a problem+json `detail` or `title`, else a
 * `message`. The service does not describe its error body, so these are the client's guesses at common
 * layouts; empty when none fits.
 */
export function reasonOf(body: unknown): string {
  // Any other JSON value (a string, a number, an array) has none of these fields; only null and undefined cannot be read.
  const { validation, detail, title, message } = (body ?? {}) as Record<string, unknown>;
  const reason = (validation as { message?: unknown }[] | undefined)?.[0]?.message || detail || title || message;
  return reason ? `: ${describeValue(reason, 120)}` : "";
}
