import { ignoredAuth } from "./auth.ts";
import { negativeDataRejection, positiveDataAcceptance } from "./data.ts";
import { bodyEncoding } from "./encoding.ts";
import { filterMatch } from "./filters.ts";
import { responseHeadersConformance } from "./headers.ts";
import { unsupportedMethod } from "./methods.ts";
import { acceptNegotiation } from "./negotiation.ts";
import { envelopeMath } from "./paging.ts";
import { contentTypeConformance, notAServerError, responseSchemaConformance, statusCodeConformance } from "./response.ts";
import { maxResponseTime } from "./timing.ts";
import type { ExchangeCheck } from "./types.ts";

/** Every check of the kit, by the name reports use: what it checks in one line, and the rule of the seed or description it holds the server to. */
export const checkCatalog = {
  not_a_server_error: {
    description: "No 5xx but the 500s the seed states (the trigger list's internal error, the fire's failed validation), and those with details in the body.",
    rule: "Seed, Errors: the only 5xx the service states are the trigger list's 500 (internal server error) and the fire's 500 (variable values failed validation), each with details in the body.",
    onEvery: "response",
    check: notAServerError,
  },
  status_code_conformance: {
    description: "Every status is documented for its operation.",
    rule: "Description: the responses each operation lists (openapi/paths).",
    onEvery: "response",
    check: statusCodeConformance,
  },
  content_type_conformance: {
    description: "Every body carries a documented Content-Type.",
    rule: "Seed, General conventions: payloads are JSON; description: the media types of each response.",
    onEvery: "response",
    check: contentTypeConformance,
  },
  response_headers_conformance: {
    description: "Every response header the description documents is present and valid.",
    rule: "Description: the headers of each response.",
    onEvery: "response",
    check: responseHeadersConformance,
  },
  body_encoding: {
    description: "Every body is valid UTF-8, and a charset in its Content-Type says utf-8.",
    rule: "Seed, General conventions: payloads are JSON; RFC 8259 §8.1: JSON exchanged between systems is UTF-8.",
    onEvery: "response",
    check: bodyEncoding,
  },
  response_schema_conformance: {
    description: "Every body is valid against the description (the export model closed included).",
    rule: "Description: the response schemas; seed, Conversation export model: no additional properties except on Attachment.",
    onEvery: "response",
    check: responseSchemaConformance,
  },
  max_response_time: {
    description: "Every response arrives within --max-response-time (opt-in).",
    rule: "The bound you set with --max-response-time (the seed states no time-outs).",
    onEvery: "response",
    check: maxResponseTime,
  },
  ignored_auth: {
    description: "No token, a wrong or empty one, or one in the query string instead of the header, is refused with 401.",
    rule: "Seed, Authentication 1-3: every operation requires the X-Token header, the only method listed; a missing or invalid token gives 401.",
    onEvery: "response",
    check: ignoredAuth,
  },
  accept_negotiation: {
    description: "An Accept header without JSON gets 406 or a documented media type.",
    rule: "RFC 9110 §12.5.1 (a server may ignore Accept or answer 406) and the description's media types.",
    onEvery: "response",
    check: acceptNegotiation,
  },
  unsupported_method: {
    description: "A 405 for a method the description does not list on a path carries Allow; any other answer is reported, not judged.",
    rule: "RFC 9110 §15.5.6: a 405 MUST carry Allow; the seed lists each operation's method and does not say how another is answered (the undocumented_methods finding).",
    onEvery: "response",
    check: unsupportedMethod,
  },
  negative_data_rejection: {
    description: "Values the description rules out are refused with a 4xx.",
    rule: "Description: the parameter and request body schemas (a value they rule out is no valid request).",
  },
  positive_data_acceptance: {
    description: "Values the description allows are accepted (2xx, or 404 for an unknown resource).",
    rule: "Description: the parameter and request body schemas (a value they allow is a valid request).",
  },
  envelope_math: {
    description: "The page envelope adds up on every page.",
    rule: "Seed, Page envelope: pageIndex, pageSize, totalItemCount, totalPageCount, fromItemInclusive (inclusive), toItemExclusive (exclusive), hasMore.",
    onEvery: "page",
    check: envelopeMath,
  },
  paging_walk: {
    description: "Walking every page yields totalItemCount distinct conversations, no duplicates.",
    rule: "Seed, Page envelope: totalItemCount is the total number of matching conversations; hasMore says whether more pages follow.",
  },
  filter_match: {
    description: "Every returned item matches each filter sent, dates compared as instants.",
    rule: "Seed, Search: status, channelId and the periods (startFromDate/startToDate for the start, latestMessageFromDate/latestMessageToDate for the last message); dates are ISO 8601.",
    onEvery: "page",
    check: filterMatch,
  },
  filter_inclusion: {
    description: "A conversation known to match a filter is found by it.",
    rule: "Seed, Search: the search returns the conversations matching the filter (totalItemCount is the number of matching conversations).",
  },
  filter_combination: {
    description: "Two filters together find exactly the conversations each finds alone, on every page of the walk.",
    rule: "Seed, Search: the parameters are filters of one search; a conversation matches when it matches each one sent.",
  },
  search_model: {
    description:
      "Generated searches over every filter, combination, period, page size and page agree with a model of the server's own data (its unfiltered walk): items, counts and every envelope field; order is not compared.",
    rule: "Seed, Search: the parameters filter the conversations (status, channelId, the periods of the start and of the last message); the page envelope counts the matching conversations (totalItemCount) and pages them (pageSize, pageIndex, fromItemInclusive, toItemExclusive, totalPageCount, hasMore); ordering of items: not shown.",
  },
  metamorphic_relations: {
    description:
      "Every relation (HEAD as GET, a percent-encoded query or path, Accept with JSON among others, Connection: close, If-None-Match, the walk at another page size) applied to the requests of every operation in every phase: the answers relate as HTTP or the seed says.",
    rule: "RFC 9110 (§9.3.2 HEAD, §7.6.1 Connection, §13.1.2 If-None-Match, §15.4.5 304), RFC 3986 §6.2.2.2 (a percent-encoded unreserved character is that character), and the seed's totalItemCount (the total number of matching conversations, whatever the page size); a difference HTTP allows is the relation_differences finding.",
  },
  operation_consistency: {
    description:
      "The operations agree with one another: a search's summary with the conversation's export, the trigger list with what a fire takes, a fire with what changes, answers at once with answers in turn.",
    rule: "Seed: the summary's fields name the conversation's own (messagesCount the number of its messages, latestMessageOn and latestMessageText its last message); the trigger list is of all triggers that can be fired, with the fillable variables; a fire sends an event into an existing conversation; RFC 9110 §9.2.1 (GET is safe).",
  },
  bot_filter_match: {
    description:
      "agentStageId finds only that bot's conversations: an unknown bot or a near miss of a known one finds none; a bot's conversations are among all.",
    rule: "Seed, Search: agentStageId is the bot identifier; the search returns the conversations of that bot.",
  },
  empty_search_page: {
    description: "A search that matches nothing is 200 with an empty page.",
    rule: "Seed, Search: Response 200 is the page envelope; totalItemCount is the number of matching conversations, which may be 0.",
  },
  identifier_encoding: {
    description:
      "An identifier written another way that means the same (a percent-encoded character in a path or a query, a JSON escape in a body) is answered as the identifier itself.",
    rule: "Seed: agentStageId and conversationId identify a bot and a conversation; RFC 3986 §6.2.2.2 (a percent-encoded unreserved character is that character) and RFC 8259 §7 (an escaped character is that character).",
  },
  unknown_bot_not_found: {
    description: "An unknown agentStageId is 404 on the trigger list.",
    rule: "Seed, Errors: List triggers 404, no bot with the given agentStageId.",
  },
  unknown_trigger_not_found: { description: "Firing an unknown externalEventId is 404.", rule: "Seed, Fire rule: an unknown trigger gives 404." },
  unknown_conversation_not_found: {
    description: "Firing into an unknown conversation is 404, by either identifier.",
    rule: "Seed, Fire rule: no conversation matching conversationId or externalConversationId gives 404.",
  },
  payload_validation_rejection: {
    description: "A wrong value for a variable type is a 500 with details.",
    rule: "Seed, Fire rule: payload values that fail validation give 500 with details in the body; Variable types and value formats.",
  },
  payload_acceptance: {
    description: "A right value for a variable type is a 200 with an empty body.",
    rule: "Seed, Fire: Response 200, event sent; empty body.",
  },
  payload_optional: {
    description: "A fire without externalEventPayload, or with an empty one, is a 200 with an empty body.",
    rule: "Seed, Fire: externalEventPayload is not required; Response 200, event sent; empty body.",
  },
  payload_shape_rejection: {
    description: "An externalEventPayload that is not a JSON object (an array, a string, a number) is refused: a 4xx, or a 500 with details.",
    rule: "Seed, Fire: externalEventPayload is an object (map from variable identifier to value); values that fail validation give 500 with details.",
  },
} as const satisfies Record<string, CatalogEntry>;

/**
 * A check of the catalog: what it checks and the rule it holds the server to; for a check of every
 * response (`onEvery: "response"`, applied by the session) or of every 200 search page a phase reads
 * (`onEvery: "page"`), its function. The other checks' functions are in this folder, each named in
 * its doc comment after the check, and the phases that judge with them (`phases/index.ts`) name the
 * checks they feed.
 */
interface CatalogEntry {
  readonly description: string;
  readonly rule: string;
  readonly onEvery?: "response" | "page";
  readonly check?: ExchangeCheck;
}

/** Name of a check. */
export type CheckName = keyof typeof checkCatalog;

/** Every check name, in report order. */
export const checkNames = Object.keys(checkCatalog) as CheckName[];

/** What each check checks, in one line, by name. */
export const checkDescriptions = Object.fromEntries(checkNames.map((name) => [name, checkCatalog[name].description])) as Record<CheckName, string>;

/** Whether a string names a check. */
export const isCheckName = (name: string): name is CheckName => name in checkCatalog;

/** The checks the catalog runs on every `scope`, with their functions, in report order. */
const checksOnEvery = (scope: "response" | "page"): ReadonlyArray<readonly [CheckName, ExchangeCheck]> =>
  checkNames.flatMap((name) => {
    const entry: CatalogEntry = checkCatalog[name];
    return entry.onEvery === scope && entry.check ? [[name, entry.check] as const] : [];
  });

/** Checks run on every response the kit receives. */
export const responseChecks = checksOnEvery("response");

/** Checks of the rules that every 200 search page must keep. */
export const pageChecks = checksOnEvery("page");

export { envelopeMath, filterMatch, ignoredAuth, negativeDataRejection, positiveDataAcceptance };
