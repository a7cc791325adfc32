import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { type ExchangeCheck, notApplicable } from "./types.ts";

/**
 * A body is UTF-8, as JSON exchanged between systems must be (RFC 8259 §8.1), and a `charset` in its
 * `Content-Type` says so: bytes that are not UTF-8 (a Latin-1 body) or another charset fail.
 */
export const bodyEncoding: ExchangeCheck = (exchange) => {
  if (exchange.text === "" || exchange.status === 0) return notApplicable;
  const problems: string[] = [];
  if (exchange.invalidUtf8) problems.push("expected a UTF-8 body; got bytes that are not valid UTF-8");
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(exchange.headers.get("content-type") ?? "")?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) problems.push(`expected charset=utf-8 (or none) in Content-Type; got charset=${charset}`);
  return problems.length === 0 ? undefined : problems.join("; ");
};

/** The `response-bytes` probe family. */
export const responseBytesFamily = {
  name: "response-bytes",
  probes: "Every body's bytes: strict UTF-8 (RFC 8259 §8.1), no byte order mark, a charset that says utf-8.",
  rules: ["payloads-are-json", "summary-latest-message-text"],
} as const satisfies ProbeFamily;

/** The catalog's entry of `body_encoding`. */
export const bodyEncodingEntry = {
  name: "body_encoding",
  description: "Every body is valid UTF-8, and a charset in its Content-Type says utf-8.",
  rule: "Seed, General conventions: payloads are JSON; RFC 8259 §8.1: JSON exchanged between systems is UTF-8.",
  onEvery: "response",
  check: bodyEncoding,
  phases: [],
  families: [responseBytesFamily],
} as const satisfies CatalogEntry;
