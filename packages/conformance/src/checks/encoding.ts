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
