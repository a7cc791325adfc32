import type { Exchange } from "../case.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { type ExchangeCheck, notJudged } from "./types.ts";

/**
 * `identifier_encoding`: a request naming an identifier written another way that means the same
 * (`what`) is answered as the request naming it plainly (`reference`): the same status, and the same
 * answer once `digest` has read both bodies (the trigger list itself, a search's total).
 */
export const sameAsIdentifier =
  (what: string, reference: Exchange | undefined, digest: (json: unknown) => unknown = () => undefined): ExchangeCheck =>
  (exchange) => {
    if (!reference) return notJudged(`no plain request to compare ${what} with`);
    if (exchange.status !== reference.status) return `expected ${what} to be answered as the identifier itself (${reference.status}); got ${exchange.status}`;
    const [mine, theirs] = [digest(exchange.json), digest(reference.json)].map((value) => JSON.stringify(value));
    return mine === theirs ? undefined : `expected ${what} to find what the identifier itself finds (${theirs}); got ${mine}`;
  };

/** The `identifier-encodings` probe family, judged on its own tagged probes. */
export const identifierEncodingsFamily = {
  name: "identifier-encodings",
  probes:
    "The known bot's id with an unreserved character percent-encoded, in the trigger list's path and the search's query (RFC 3986 §6.2.2.2: the same id), and the conversation's id with a character written as a JSON escape in a fire body (RFC 8259 §7: the same string): answered as the id itself.",
  rules: ["search-agent-stage-id", "triggers-path-parameter", "fire-conversation-id"],
  tagged: true,
} as const satisfies ProbeFamily;

/** The catalog's entry of `identifier_encoding`. */
export const identifierEncodingEntry = {
  name: "identifier_encoding",
  description:
    "An identifier written another way that means the same (a percent-encoded character in a path or a query, a JSON escape in a body) is answered as the identifier itself.",
  rule: "Seed: agentStageId and conversationId identify a bot and a conversation; RFC 3986 §6.2.2.2 (a percent-encoded unreserved character is that character) and RFC 8259 §7 (an escaped character is that character).",
  phases: ["identifiers: near misses and encodings of the bot's id", "fireExternalEvent: the conversation's id with a JSON escape"],
  families: [identifierEncodingsFamily],
} as const satisfies CatalogEntry;
