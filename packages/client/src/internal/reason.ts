/**
 * A short reason from a failure body, for the error's message (at most 120 characters; the whole body
 * stays on the error): the first validation entry's message (Prism's `validation: [{ location,
 * message: "Request query parameter status must be …" }]`), else a problem+json `detail` or `title`,
 * else a `message`. The service does not describe its error body, so these are the client's guesses at
 * common layouts; undefined when none fits.
 */
export function reasonOf(body: unknown): string | undefined {
  // Any other JSON value (a string, a number, an array) has none of these fields; only null and undefined cannot be read.
  const { validation, detail, title, message } = (body ?? {}) as Record<string, unknown>;
  const reason = (validation as { message?: unknown }[] | undefined)?.[0]?.message || detail || title || message;
  return typeof reason === "string" ? reason.replace(/\s+/g, " ").slice(0, 120) : undefined;
}
