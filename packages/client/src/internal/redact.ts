/**
 * Redaction of the access token, per call: every error and log line of a call is cleaned of the token
 * values that call sent (the client's choice of rule, see the README's "Token safety"). A token of 8 or
 * more characters is replaced wherever it occurs; a shorter one (never a real secret, but common in
 * tests) only where it stands alone, not next to a letter, digit, `_` or `-`, so that ordinary words
 * that merely contain its letters are not mangled.
 */
import { isJsonObject } from "./describe.js";

/**
 * `text` with the given token values replaced by `replacement` (default `[redacted]`); an empty token
 * hides nothing. A short token is judged by its neighbours in the text itself, so `tt` keeps both
 * letters of a token `t`. Exported as `redactText` by `@bot-conversation/client/text`: the one
 * redactor of the toolkit (the CLI, the MCP server and the conformance kit call it).
 */
export const redact = (text: string, tokens: Iterable<string>, replacement = "[redacted]"): string =>
  [...tokens].reduce(
    (clean, token) =>
      !token
        ? clean
        : token[7]
          ? clean.split(token).join(replacement)
          : clean.replace(new RegExp(`(?<![\\w-])${token.replace(/[$()*+.?[\\\]^{|}]/g, "\\$&")}(?![\\w-])`, "g"), () => replacement),
    text,
  );

/** A JSON-able value with the tokens redacted from every string and object key, at any depth; its shape is kept (undefined stays undefined). */
export function redactJson<T>(value: T, tokens: Iterable<string>, replacement?: string): T {
  return value === undefined
    ? value
    : (JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
        typeof item === "string"
          ? redact(item, tokens, replacement)
          : isJsonObject(item)
            ? Object.fromEntries(Object.entries(item).map(([key, entry]) => [redact(key, tokens, replacement), entry]))
            : item,
      ) as T);
}

/**
 * A redacted one-line summary of a failure and its causes' messages, e.g. `fetch failed: connect
 * ECONNREFUSED 127.0.0.1:9`. The client keeps this summary, never the failure itself: undici's errors
 * carry the raw bytes of a response (a token it echoed included) in fields that `console.error` prints.
 */
export function describeFailure(error: unknown, tokens: Iterable<string>): string {
  const messages: string[] = [];
  for (let cause = error; cause instanceof Error && messages.length < 4; cause = cause.cause) messages.push(cause.message);
  return redact(messages.join(": "), tokens);
}
