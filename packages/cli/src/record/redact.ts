/**
 * Redaction by structure: a secret is removed where it stands, never searched for as text across a
 * file. A secret header (`X-Token`, `Authorization`, `Proxy-Authorization`, `Cookie`; a response's
 * `Set-Cookie`) is left out; a query parameter whose name looks secret (`secretQueryParameter`) is left
 * out; a body field whose name looks secret (`secretBodyField`) has its value replaced by `[redacted]`.
 * The same characters anywhere else are data (`Set-Cookie: v=1` leaves every `1` of a body alone).
 * Besides, a secret the client sent that the upstream echoes in a body's text (an error detail quoting the
 * token) is replaced inside that string, but only a secret of 8 characters or more (our choice, the
 * client's own rule for a real secret: a shorter value cannot be told from data).
 */
import { redactJson, redactText } from "@bot-conversation/client/text";
import { secretHeaders } from "@bot-conversation/openapi";
import { description } from "../description.js";
import { secretQueryParameter } from "./exchange.js";
import { endToEndHeaders } from "./forward.js";
import type { JournalBody, JournalEntry } from "./journal.js";

/** Headers that carry credentials, either way (the toolkit's one list: the description's `X-Token`, HTTP's): never kept. */
const secretHeaderNames = secretHeaders(description);

/** Headers about the bytes on the wire, not the message the journal keeps (its body is kept decoded). */
const framingHeaders = new Set(["content-length", "content-encoding", "host"]);

/** A body field whose value may be a secret (a token, a password, a key): its value is never kept. */
export const secretBodyField = (name: string): boolean =>
  /^(x-?)?token$|(access|refresh|id|auth|bearer|api)[-_]?token|api[-_]?key|secret|password|passwd|authorization|cookie|credential/i.test(name);

/** The replacement of a secret value. */
export const redacted = "[redacted]";

/** The shortest secret replaced inside the text of a body when echoed (our choice, as the client's redactor judges a real secret). */
const echoedSecretMinimum = 8;

/** The secrets of a request: every value of its secret headers and secret query parameters, and each one's credential. */
export function requestSecrets(rawHeaders: readonly string[], query: URLSearchParams): string[] {
  const secrets: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    if (secretHeaderNames.has(name)) secrets.push(...credentialsOf(rawHeaders[index + 1]!, name));
  }
  for (const [name, value] of query) if (secretQueryParameter(name) && value.trim()) secrets.push(value.trim());
  return secrets;
}

/** A header's value and its credential (`Bearer abc`: `abc`; a cookie's every value). */
function credentialsOf(value: string, header: string): string[] {
  const trimmed = value.trim();
  if (!trimmed) return [];
  const parts = header === "cookie" ? trimmed.split(";").map((pair) => pair.slice(pair.indexOf("=") + 1)) : [trimmed.replace(/^(bearer|basic|token)\s+/i, "")];
  return [trimmed, ...parts.map((part) => part.trim()).filter(Boolean)];
}

/** Raw headers as kept pairs: without the connection's, the framing's and the `secret` ones. */
function keptHeaders(raw: readonly string[], secret: ReadonlySet<string>): [string, string][] {
  const kept: [string, string][] = [];
  const endToEnd = endToEndHeaders(raw);
  for (let index = 0; index + 1 < endToEnd.length; index += 2) {
    const name = endToEnd[index]!.toLowerCase();
    if (!secret.has(name) && !framingHeaders.has(name)) kept.push([endToEnd[index]!, endToEnd[index + 1]!]);
  }
  return kept;
}

/** A JSON value with every secret-looking field's value replaced, at any depth. */
function redactFields(value: unknown, depth = 0): unknown {
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactFields(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, secretBodyField(name) ? redacted : redactFields(item, depth + 1)]));
}

/** A body for the journal: its secret fields and echoed secrets removed; `transform` (pseudonyms) applied to its JSON. */
function keptBody(bytes: Uint8Array, secrets: readonly string[], transform: (json: unknown) => unknown = (json) => json): JournalBody {
  if (bytes.length === 0) return {};
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { base64: Buffer.from(bytes).toString("base64") };
  }
  const long = secrets.filter((secret) => secret.length >= echoedSecretMinimum);
  try {
    return { json: redactJson(transform(redactFields(JSON.parse(text) as unknown)), long) };
  } catch {
    return { text: redactText(text, long) };
  }
}

/** What the recorder read of one exchange, as it came. */
export interface RawExchange {
  readonly method: string;
  /** The request's path and query string. */
  readonly target: URL;
  readonly requestHeaders: readonly string[];
  readonly requestBody: Uint8Array;
  readonly status: number;
  readonly responseHeaders: readonly string[];
  /** The response body decoded from its content encoding. */
  readonly responseBody: Uint8Array;
  readonly durationMs: number;
  /** The origin the request went to (the upstream's base URL, its path prefix included), kept for the HAR. */
  readonly origin?: string;
}

/** The journal's entry of an exchange: secrets removed where they stand; `pseudonymize` applied to the response's JSON. */
export function journalEntryOf(raw: RawExchange, pseudonymize?: (json: unknown) => unknown): JournalEntry {
  const secrets = requestSecrets(raw.requestHeaders, raw.target.searchParams);
  const query: Record<string, string> = {};
  for (const [name, value] of raw.target.searchParams) if (!secretQueryParameter(name)) query[name] = value;
  return {
    request: {
      ...(raw.origin === undefined ? {} : { origin: raw.origin }),
      method: raw.method,
      path: raw.target.pathname,
      query,
      headers: keptHeaders(raw.requestHeaders, secretHeaderNames),
      body: keptBody(raw.requestBody, secrets),
    },
    response: {
      status: raw.status,
      headers: keptHeaders(raw.responseHeaders, secretHeaderNames),
      body: keptBody(raw.responseBody, secrets, pseudonymize),
    },
    durationMs: Math.round(raw.durationMs),
  };
}
