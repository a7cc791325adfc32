/**
 * Metamorphic relations (Segura et al., "Metamorphic Testing of RESTful Web APIs", TSE 2018): a relation turns a
 * request the kit sends into another that HTTP (RFC 9110, RFC 3986) or the seed says must be answered the same, or
 * in a known way, and compares the two answers. The session applies every relation to the requests of every
 * operation in every phase (`Session.exchange`), never to a hand-picked one. Where HTTP leaves the answer open the
 * difference is a finding (`relation_differences`), never a failure; where it does not, a failure of
 * `metamorphic_relations` quoting the relation.
 */
import type { Case, Exchange } from "./case.ts";
import { mediaTypeOf } from "./case.ts";
import type { CatalogEntry } from "./checks/entry.ts";
import type { ProbeFamily } from "./checks/family.ts";

/** What a relation makes of two answers: held, a failure (what broke), or a difference HTTP allows (a finding). */
export type RelationVerdict = undefined | { readonly failure: string } | { readonly difference: string };

/** One relation: which requests it transforms, how, and how it compares the answers. */
export interface Relation {
  /** Stable name, snake case (`head_as_get`). */
  readonly name: string;
  /** What it does, in one line. */
  readonly description: string;
  /** What says the answers relate so, and whether a difference fails or is a finding. */
  readonly rule: string;
  /** The transformed request, or undefined when the relation does not apply to this exchange. */
  transform(original: Exchange): Case | undefined;
  /** The two answers compared. */
  compare(original: Exchange, transformed: Exchange): RelationVerdict;
}

/** Whether a request is safe to send again (RFC 9110 §9.2.1): the relations transform only those. */
const isSafe = (request: Case): boolean => request.method === "GET";

/** Two answers with the same status and, for a success, the same JSON (or the same text): what differs, or undefined. */
export function sameAnswer(original: Exchange, transformed: Exchange): string | undefined {
  if (original.status !== transformed.status) return `status ${original.status} became ${transformed.status}`;
  if (original.status < 200 || original.status >= 300) return undefined;
  const left = original.isJson ? JSON.stringify(original.json) : original.text;
  const right = transformed.isJson ? JSON.stringify(transformed.json) : transformed.text;
  return left === right ? undefined : "the same status with another body";
}

/** The unreserved characters of RFC 3986 §2.3: a percent-encoded one is that character (§6.2.2.2). */
const unreserved = /[A-Za-z0-9\-._~]/;

/** `text` with its first unreserved character percent-encoded (uppercase hex), and the rest encoded as a query component. */
function encodeOneUnreserved(text: string): string | undefined {
  const at = [...text].findIndex((character) => unreserved.test(character));
  if (at === -1) return undefined;
  const characters = [...text];
  return characters
    .map((character, index) => (index === at ? `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}` : encodeURIComponent(character)))
    .join("");
}

/** The relations on a safe request (GET): its method, the spelling of its path and query, its negotiation, connection and preconditions. */
const safeRequestRelations: readonly Relation[] = [
  {
    name: "head_as_get",
    description: "The same request with HEAD instead of GET: the same status and Content-Type, no body.",
    rule: "RFC 9110 §9.3.2: HEAD is GET without content, and the server SHOULD send the same header fields; the seed lists GET only (head-and-options): a difference is a finding.",
    transform: (original) => (isSafe(original.case) ? { ...original.case, method: "HEAD" } : undefined),
    compare: (original, transformed) => {
      if (transformed.status !== original.status) return { difference: `HEAD answered ${transformed.status} where GET answered ${original.status}` };
      if (transformed.text !== "") return { failure: `expected no content in the answer to HEAD (RFC 9110 §9.3.2); got ${transformed.text.length} characters` };
      if (mediaTypeOf(transformed.headers) !== mediaTypeOf(original.headers))
        return { difference: `HEAD's Content-Type ${mediaTypeOf(transformed.headers) || "(none)"} is not GET's ${mediaTypeOf(original.headers) || "(none)"}` };
      return undefined;
    },
  },
  {
    name: "query_percent_encoding",
    description: "The same query with an unreserved character of each value percent-encoded: the same answer.",
    rule: 'RFC 3986 §2.3 and §6.2.2.2: a percent-encoded unreserved character is that character, so the request is the same; the seed: "Parameters are passed in the query string".',
    transform: (original) => {
      const entries = Object.entries(original.case.query);
      if (!isSafe(original.case) || entries.length === 0 || original.case.rawQuery) return undefined;
      const rawQuery: Record<string, string> = {};
      for (const [name, value] of entries) rawQuery[name] = encodeOneUnreserved(value) ?? encodeURIComponent(value);
      return { ...original.case, query: {}, rawQuery };
    },
    compare: (original, transformed) => {
      const different = sameAnswer(original, transformed);
      return different ? { failure: `expected the same answer for the query with a percent-encoded unreserved character; ${different}` } : undefined;
    },
  },
  {
    name: "path_percent_encoding",
    description: "The same path with one unreserved character of its last segment percent-encoded: the same answer.",
    rule: "RFC 3986 §6.2.2.2: such URIs are equivalent and should be normalized; a server that does not normalize its own path is within HTTP's latitude: a difference is a finding.",
    transform: (original) => {
      if (!isSafe(original.case)) return undefined;
      const slash = original.case.path.lastIndexOf("/");
      const encoded = encodeOneUnreserved(decodeURIComponent(original.case.path.slice(slash + 1)));
      return encoded ? { ...original.case, path: original.case.path.slice(0, slash + 1) + encoded } : undefined;
    },
    compare: (original, transformed) => {
      const different = sameAnswer(original, transformed);
      return different ? { difference: `the path with a percent-encoded unreserved character: ${different}` } : undefined;
    },
  },
  {
    name: "accept_any",
    description: "The same request with Accept: */* (and with JSON among others): the same answer.",
    rule: "RFC 9110 §12.5.1: */* accepts any media type and JSON is the service's only one (the seed: payloads are JSON); how a server negotiates is its own: a difference is a finding.",
    transform: (original) =>
      isSafe(original.case) && original.case.accept === undefined
        ? { ...original.case, accept: "text/html;q=0.9, application/json;q=0.8, */*;q=0.1" }
        : undefined,
    compare: (original, transformed) => {
      const different = sameAnswer(original, transformed);
      return different ? { difference: `Accept with JSON among others: ${different}` } : undefined;
    },
  },
  {
    name: "connection_close",
    description: "The same request on a connection closed after it (Connection: close; the others keep theirs alive): the same answer.",
    rule: "RFC 9110 §7.6.1 and RFC 9112 §9.6: Connection names options of the connection, never of the request's meaning.",
    transform: (original) => (isSafe(original.case) ? { ...original.case, headers: { ...original.case.headers, connection: "close" } } : undefined),
    compare: (original, transformed) => {
      const different = sameAnswer(original, transformed);
      return different ? { failure: `expected the same answer on a connection closed after the request; ${different}` } : undefined;
    },
  },
  {
    name: "conditional_request",
    description:
      "The same request with If-None-Match: the answer's own ETag gets 304 or the same answer; another tag gets the same answer; no ETag, another tag only.",
    rule: "RFC 9110 §13.1.2: a matching If-None-Match on GET is answered 304 (or ignored by a server that does not evaluate it), a tag that does not match changes nothing.",
    transform: (original) => {
      if (!isSafe(original.case) || original.status !== 200) return undefined;
      const etag = original.headers.get("etag");
      return { ...original.case, headers: { ...original.case.headers, "if-none-match": etag ?? '"conformance-no-such-tag"' } };
    },
    compare: (original, transformed) => {
      const matching = transformed.case.headers?.["if-none-match"] === original.headers.get("etag");
      if (matching && transformed.status === 304) return transformed.text === "" ? undefined : { failure: "expected no content in a 304 (RFC 9110 §15.4.5)" };
      const different = sameAnswer(original, transformed);
      return different
        ? { failure: `expected ${matching ? "304 or " : ""}the same answer with If-None-Match ${transformed.case.headers?.["if-none-match"]}; ${different}` }
        : undefined;
    },
  },
];

/** A request with a JSON body written by the kit (not a raw text it must keep byte for byte): the relations on bodies transform only those. */
const hasBody = (request: Case): boolean => request.body !== undefined && request.rawBody === undefined;

/** A JSON value with the names of every object in reverse order. */
const reversedMembers = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reversedMembers)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([name, entry]) => [name, reversedMembers(entry)]),
        )
      : value;

/** Whether a JSON value holds an object of two names or more (whose order can change). */
const hasTwoMembers = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(hasTwoMembers)
    : typeof value === "object" && value !== null && (Object.keys(value).length > 1 || Object.values(value).some(hasTwoMembers));

/**
 * The relations on a request's body, applied to every request that has one (the fire): its framing on the wire and
 * the spelling of its JSON. A fire the server takes is a real event; so is its transformed copy (`--allow-fire`).
 */
const bodyRelations: readonly Relation[] = [
  {
    name: "body_chunked",
    description: "The same body sent chunked (Transfer-Encoding: chunked) instead of with a Content-Length: the same answer.",
    rule: "RFC 9112 §6 and §7.1: chunked is a framing of the same content, which every HTTP/1.1 recipient MUST be able to parse; a 411 (RFC 9110 §15.5.12: the server requires a length) is its right: a finding.",
    transform: (original) => (hasBody(original.case) ? { ...original.case, bodyFraming: "chunked" } : undefined),
    compare: (original, transformed) => {
      if (transformed.status === 411 && original.status !== 411) return { difference: "a chunked body was answered 411 (Length Required)" };
      const different = sameAnswer(original, transformed);
      return different ? { failure: `expected the same answer for the body sent chunked; ${different}` } : undefined;
    },
  },
  {
    name: "json_whitespace",
    description: "The same JSON body with white space between every token (tabs, CR LF): the same answer.",
    rule: "RFC 8259 §2: insignificant white space is allowed before or after any structural character; the seed: payloads are JSON.",
    transform: (original) =>
      hasBody(original.case) ? { ...original.case, rawBody: ` \r\n${JSON.stringify(original.case.body, null, "\t").replaceAll("\n", "\r\n")}` } : undefined,
    compare: (original, transformed) => {
      const different = sameAnswer(original, transformed);
      return different ? { failure: `expected the same answer for the body with white space between its tokens; ${different}` } : undefined;
    },
  },
  {
    name: "json_member_order",
    description: "The same JSON body with the members of every object in reverse order: the same answer.",
    rule: "RFC 8259 §4: an object is an unordered collection of members, and implementations whose behaviour does not depend on their order are interoperable (a SHOULD in spirit, not a MUST): a difference is a finding.",
    transform: (original) =>
      hasBody(original.case) && hasTwoMembers(original.case.body)
        ? { ...original.case, rawBody: JSON.stringify(reversedMembers(original.case.body)) }
        : undefined,
    compare: (original, transformed) => {
      const different = sameAnswer(original, transformed);
      return different ? { difference: `the body with its members in reverse order: ${different}` } : undefined;
    },
  },
];

/** Every relation the session applies, in report order. */
export const relations: readonly Relation[] = [...safeRequestRelations, ...bodyRelations];

/** The page-size relation of a walk: named here so the report counts it beside the others. */
export const pageSizeRelation = {
  name: "walk_page_size",
  description: "The same search walked at another page size: the same totalItemCount and the same set of conversations.",
  rule: "Seed, Page envelope: totalItemCount is the total number of matching conversations, whatever the page size; the pages hold them.",
} as const;

/** How many requests of one operation in one phase each relation transforms: every operation and phase, at a bounded cost. */
export const transformsPerPhase = 2;

/** The `relations` probe family. */
export const relationsFamily = {
  name: "relations",
  probes:
    "The requests of every operation in every phase sent again transformed: HEAD as GET, an unreserved character of the query and of the path percent-encoded, Accept with JSON among others, If-None-Match, each with a wrong token once; the unfiltered walk read again at another page size: the answers relate as HTTP and the seed say.",
  rules: ["page-total-item-count", "search-parameters-optional"],
} as const satisfies ProbeFamily;

/** The catalog's entry of `metamorphic_relations`. */
export const metamorphicRelationsEntry = {
  name: "metamorphic_relations",
  description:
    "Every relation (HEAD as GET, a percent-encoded query or path, Accept with JSON among others, Connection: close, If-None-Match, the walk at another page size) applied to the requests of every operation in every phase: the answers relate as HTTP or the seed says.",
  rule: "RFC 9110 (§9.3.2 HEAD, §7.6.1 Connection, §13.1.2 If-None-Match, §15.4.5 304), RFC 3986 §6.2.2.2 (a percent-encoded unreserved character is that character), and the seed's totalItemCount (the total number of matching conversations, whatever the page size); a difference HTTP allows is the relation_differences finding.",
  relations: [...relations, pageSizeRelation],
  phases: ["searchConversations: walk every page, and again at another page size"],
  families: [relationsFamily],
} as const satisfies CatalogEntry;
