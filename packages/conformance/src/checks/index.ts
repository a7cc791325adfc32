import type { FamilyName } from "@bot-conversation/openapi";
import { consistencyRelations } from "../consistency.ts";
import { pageSizeRelation, relations } from "../relations.ts";
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

/**
 * The kit's one catalog (issue 48, item 7): every check by the name reports use, with what it checks in one line,
 * the rule of the seed or description it holds the server to, its function where the session applies it to every
 * response or search page, the phases that feed it (by name: each phase's list of checks is read from here), and
 * the probe families of `rules.yaml` it judges in a way of its own (`tagged`, `judgedOn`). The seed's rules and the
 * families that test them stay in `rules.yaml` (`@bot-conversation/openapi`), which the families name by id.
 */
export const checkCatalog = {
  not_a_server_error: {
    description: "No 5xx but the 500s the seed states (the trigger list's internal error, the fire's failed validation), and those with details in the body.",
    rule: "Seed, Errors: the only 5xx the service states are the trigger list's 500 (internal server error) and the fire's 500 (variable values failed validation), each with details in the body.",
    onEvery: "response",
    check: notAServerError,
    phases: [],
  },
  status_code_conformance: {
    description: "Every status is documented for its operation.",
    rule: "Description: the responses each operation lists (openapi/paths).",
    onEvery: "response",
    check: statusCodeConformance,
    phases: [],
  },
  content_type_conformance: {
    description: "Every body carries a documented Content-Type.",
    rule: "Seed, General conventions: payloads are JSON; description: the media types of each response.",
    onEvery: "response",
    check: contentTypeConformance,
    phases: [],
  },
  response_headers_conformance: {
    description: "Every response header the description documents is present and valid.",
    rule: "Description: the headers of each response.",
    onEvery: "response",
    check: responseHeadersConformance,
    phases: [],
  },
  body_encoding: {
    description: "Every body is valid UTF-8, and a charset in its Content-Type says utf-8.",
    rule: "Seed, General conventions: payloads are JSON; RFC 8259 §8.1: JSON exchanged between systems is UTF-8.",
    onEvery: "response",
    check: bodyEncoding,
    phases: [],
  },
  response_schema_conformance: {
    description: "Every body is valid against the description (the export model closed included).",
    rule: "Description: the response schemas; seed, Conversation export model: no additional properties except on Attachment.",
    onEvery: "response",
    check: responseSchemaConformance,
    phases: ["export route"],
    // A value the seed spells (a status, a role, `Outbound`) is an enum or a const of the description.
    judgedOn: { "spelled-values": { keywords: ["enum", "const"] } },
  },
  max_response_time: {
    description: "Every response arrives within --max-response-time (opt-in).",
    rule: "The bound you set with --max-response-time (the seed states no time-outs).",
    onEvery: "response",
    check: maxResponseTime,
    phases: [],
  },
  ignored_auth: {
    description: "No token, a wrong or empty one, or one in the query string instead of the header, is refused with 401.",
    rule: "Seed, Authentication 1-3: every operation requires the X-Token header, the only method listed; a missing or invalid token gives 401.",
    onEvery: "response",
    check: ignoredAuth,
    phases: ["every operation: authentication"],
    tagged: ["credential-near-misses", "credential-channels", "credential-before-lookup"],
  },
  accept_negotiation: {
    description: "An Accept header without JSON gets 406 or a documented media type.",
    rule: "RFC 9110 §12.5.1 (a server may ignore Accept or answer 406) and the description's media types.",
    onEvery: "response",
    check: acceptNegotiation,
    phases: ["every path: Accept and undocumented methods"],
  },
  unsupported_method: {
    description: "A 405 for a method the description does not list on a path carries Allow; any other answer is reported, not judged.",
    rule: "RFC 9110 §15.5.6: a 405 MUST carry Allow; the seed lists each operation's method and does not say how another is answered (the undocumented_methods finding).",
    onEvery: "response",
    check: unsupportedMethod,
    phases: ["every path: Accept and undocumented methods"],
  },
  negative_data_rejection: {
    description: "Values the description rules out are refused with a 4xx.",
    rule: "Description: the parameter and request body schemas (a value they rule out is no valid request).",
    phases: ["searchConversations: edges", "fireExternalEvent: invalid requests"],
  },
  positive_data_acceptance: {
    description: "Values the description allows are accepted (2xx, or 404 for an unknown resource).",
    rule: "Description: the parameter and request body schemas (a value they allow is a valid request).",
    phases: ["searchConversations: edges", "searchConversations: generated requests", "listExternalEventTriggers: generated requests"],
  },
  envelope_math: {
    description: "The page envelope adds up on every page.",
    rule: "Seed, Page envelope: pageIndex, pageSize, totalItemCount, totalPageCount, fromItemInclusive (inclusive), toItemExclusive (exclusive), hasMore.",
    onEvery: "page",
    check: envelopeMath,
    phases: [
      "searchConversations: first page",
      "searchConversations: edges",
      "searchConversations: combined filters",
      "searchConversations: generated searches against the model of the server's data",
      "searchConversations: generated requests",
    ],
  },
  paging_walk: {
    description: "Walking every page yields totalItemCount distinct conversations, no duplicates.",
    rule: "Seed, Page envelope: totalItemCount is the total number of matching conversations; hasMore says whether more pages follow.",
    phases: ["searchConversations: walk every page, and again at another page size"],
  },
  filter_match: {
    description: "Every returned item matches each filter sent, dates compared as instants.",
    rule: "Seed, Search: status, channelId and the periods (startFromDate/startToDate for the start, latestMessageFromDate/latestMessageToDate for the last message); dates are ISO 8601.",
    onEvery: "page",
    check: filterMatch,
    phases: [
      "searchConversations: edges",
      "searchConversations: combined filters",
      "searchConversations: generated searches against the model of the server's data",
      "searchConversations: the bot filter and searches that match nothing",
      "searchConversations: generated requests",
    ],
  },
  filter_inclusion: {
    description: "A conversation known to match a filter is found by it.",
    rule: "Seed, Search: the search returns the conversations matching the filter (totalItemCount is the number of matching conversations).",
    phases: ["searchConversations: edges"],
  },
  filter_combination: {
    description: "Two filters together find exactly the conversations each finds alone, on every page of the walk.",
    rule: "Seed, Search: the parameters are filters of one search; a conversation matches when it matches each one sent.",
    phases: ["searchConversations: combined filters"],
  },
  search_model: {
    description:
      "Generated searches over every filter, combination, period, page size and page agree with a model of the server's own data (its unfiltered walk): items, counts and every envelope field; order is not compared.",
    rule: "Seed, Search: the parameters filter the conversations (status, channelId, the periods of the start and of the last message); the page envelope counts the matching conversations (totalItemCount) and pages them (pageSize, pageIndex, fromItemInclusive, toItemExclusive, totalPageCount, hasMore); ordering of items: not shown.",
    phases: ["searchConversations: generated searches against the model of the server's data"],
  },
  metamorphic_relations: {
    description:
      "Every relation (HEAD as GET, a percent-encoded query or path, Accept with JSON among others, Connection: close, If-None-Match, the walk at another page size) applied to the requests of every operation in every phase: the answers relate as HTTP or the seed says.",
    rule: "RFC 9110 (§9.3.2 HEAD, §7.6.1 Connection, §13.1.2 If-None-Match, §15.4.5 304), RFC 3986 §6.2.2.2 (a percent-encoded unreserved character is that character), and the seed's totalItemCount (the total number of matching conversations, whatever the page size); a difference HTTP allows is the relation_differences finding.",
    relations: [...relations, pageSizeRelation],
    phases: ["searchConversations: walk every page, and again at another page size"],
  },
  operation_consistency: {
    description:
      "The operations agree with one another: a search's summary with the conversation's export, the trigger list with what a fire takes, a fire with what changes, answers at once with answers in turn.",
    rule: "Seed: the summary's fields name the conversation's own (messagesCount the number of its messages, latestMessageOn and latestMessageText its last message); the trigger list is of all triggers that can be fired, with the fillable variables; a fire sends an event into an existing conversation; RFC 9110 §9.2.1 (GET is safe).",
    relations: Object.values(consistencyRelations),
    phases: [
      "searchConversations and listExternalEventTriggers: answers in turn sent again at once",
      "export route",
      "fireExternalEvent: every conversation before the fires",
      "fireExternalEvent: each listed trigger with every variable it lists",
      "fireExternalEvent: every conversation after the fires",
    ],
  },
  bot_filter_match: {
    description:
      "agentStageId finds only that bot's conversations: an unknown bot or a near miss of a known one finds none; a bot's conversations are among all.",
    rule: "Seed, Search: agentStageId is the bot identifier; the search returns the conversations of that bot.",
    phases: ["searchConversations: the bot filter and searches that match nothing", "identifiers: near misses and encodings of the bot's id"],
    tagged: ["bot-filter-near-misses"],
  },
  empty_search_page: {
    description: "A search that matches nothing is 200 with an empty page.",
    rule: "Seed, Search: Response 200 is the page envelope; totalItemCount is the number of matching conversations, which may be 0.",
    phases: ["searchConversations: the bot filter and searches that match nothing"],
  },
  identifier_encoding: {
    description:
      "An identifier written another way that means the same (a percent-encoded character in a path or a query, a JSON escape in a body) is answered as the identifier itself.",
    rule: "Seed: agentStageId and conversationId identify a bot and a conversation; RFC 3986 §6.2.2.2 (a percent-encoded unreserved character is that character) and RFC 8259 §7 (an escaped character is that character).",
    phases: ["identifiers: near misses and encodings of the bot's id", "fireExternalEvent: the conversation's id with a JSON escape"],
    tagged: ["identifier-encodings"],
  },
  unknown_bot_not_found: {
    description: "An unknown agentStageId is 404 on the trigger list.",
    rule: "Seed, Errors: List triggers 404, no bot with the given agentStageId.",
    phases: ["listExternalEventTriggers: unknown bot", "identifiers: near misses and encodings of the bot's id"],
    tagged: ["bot-id-near-misses"],
  },
  unknown_trigger_not_found: {
    description: "Firing an unknown externalEventId is 404.",
    rule: "Seed, Fire rule: an unknown trigger gives 404.",
    phases: ["fireExternalEvent: unknown trigger and conversation"],
    tagged: ["trigger-id-near-misses"],
  },
  unknown_conversation_not_found: {
    description: "Firing into an unknown conversation is 404, by either identifier.",
    rule: "Seed, Fire rule: no conversation matching conversationId or externalConversationId gives 404.",
    phases: ["fireExternalEvent: unknown trigger and conversation"],
    tagged: ["conversation-id-near-misses"],
  },
  payload_validation_rejection: {
    description: "A wrong value for a variable type is a 500 with details.",
    rule: "Seed, Fire rule: payload values that fail validation give 500 with details in the body; Variable types and value formats.",
    phases: ["fireExternalEvent: variable values"],
    tagged: ["variable-near-misses", "variable-later-position"],
  },
  payload_acceptance: {
    description: "A right value for a variable type is a 200 with an empty body.",
    rule: "Seed, Fire: Response 200, event sent; empty body.",
    phases: ["fireExternalEvent: variable values"],
    tagged: ["variable-right-values"],
  },
  payload_optional: {
    description: "A fire without externalEventPayload, or with an empty one, is a 200 with an empty body.",
    rule: "Seed, Fire: externalEventPayload is not required; Response 200, event sent; empty body.",
    phases: ["fireExternalEvent: payload present or not, and its shape"],
  },
  payload_shape_rejection: {
    description: "An externalEventPayload that is not a JSON object (an array, a string, a number) is refused: a 4xx, or a 500 with details.",
    rule: "Seed, Fire: externalEventPayload is an object (map from variable identifier to value); values that fail validation give 500 with details.",
    phases: ["fireExternalEvent: payload present or not, and its shape"],
  },
} as const satisfies Record<string, CatalogEntry>;

/**
 * A check of the catalog: what it checks and the rule it holds the server to; for a check of every
 * response (`onEvery: "response"`, applied by the session) or of every 200 search page a phase reads
 * (`onEvery: "page"`), its function. The other checks' functions are in this folder, each named in
 * its doc comment after the check, and called by the phases that feed it.
 */
export interface CatalogEntry {
  readonly description: string;
  readonly rule: string;
  readonly onEvery?: "response" | "page";
  readonly check?: ExchangeCheck;
  /** The phases that feed the check, by their names (`phases/index.ts`, which reads each phase's checks from here); none for a check only of every response. */
  readonly phases: readonly string[];
  /** The relations whose failures are the check's, each counted in the report's Relations section, in report order. */
  readonly relations?: readonly CatalogRelation[];
  /** Families feeding the check whose probes the phases tag (a case's `family`): each judged on those requests alone. */
  readonly tagged?: readonly FamilyName[];
  /** Untagged families judged on part of the check's failures: those with a problem from a schema keyword the family names. */
  readonly judgedOn?: Partial<Record<FamilyName, JudgedOn>>;
}

/** The failures of a check a family is judged on: those with a problem that came from one of these JSON Schema keywords. */
export interface JudgedOn {
  /** The keywords (`enum`, `const`). */
  readonly keywords: readonly string[];
}

/** A relation as the catalog and the report name it: what it transforms or compares, and the rule that says the answers relate. */
export interface CatalogRelation {
  readonly name: string;
  readonly description: string;
  readonly rule: string;
}

/** Name of a check. */
export type CheckName = keyof typeof checkCatalog;

/** Every check name, in report order. */
export const checkNames = Object.keys(checkCatalog) as CheckName[];

/** What each check checks, in one line, by name. */
export const checkDescriptions = Object.fromEntries(checkNames.map((name) => [name, checkCatalog[name].description])) as Record<CheckName, string>;

/** A check's entry of the catalog, as the catalog's type has it (every field, optional ones included). */
export const catalogEntry = (name: CheckName): CatalogEntry => checkCatalog[name];

/** The checks the phase of this name feeds, in report order: those whose catalog entry names the phase. */
export const checksOfPhase = (phase: string): CheckName[] => checkNames.filter((name) => catalogEntry(name).phases.includes(phase));

/** Every relation of the catalog, in report order: the relations of each check. */
export const catalogRelations: readonly CatalogRelation[] = checkNames.flatMap((name) => catalogEntry(name).relations ?? []);

/** The check a relation's failures are failures of (`metamorphic_relations`, `operation_consistency`): the check whose entry lists it. */
export function checkOfRelation(relation: string): CheckName {
  const check = checkNames.find((name) => catalogEntry(name).relations?.some((each) => each.name === relation));
  if (!check) throw new Error(`checkCatalog: no check lists the relation ${relation}`);
  return check;
}

/** Whether a string names a check. */
export const isCheckName = (name: string): name is CheckName => name in checkCatalog;

/** The checks the catalog runs on every `scope`, with their functions, in report order. */
const checksOnEvery = (scope: "response" | "page"): ReadonlyArray<readonly [CheckName, ExchangeCheck]> =>
  checkNames.flatMap((name) => {
    const entry = catalogEntry(name);
    return entry.onEvery === scope && entry.check ? [[name, entry.check] as const] : [];
  });

/** Checks run on every response the kit receives. */
export const responseChecks = checksOnEvery("response");

/** Checks of the rules that every 200 search page must keep. */
export const pageChecks = checksOnEvery("page");

export { envelopeMath, filterMatch, ignoredAuth, negativeDataRejection, positiveDataAcceptance };
