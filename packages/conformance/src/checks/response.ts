import { type Exchange, mediaTypeOf } from "../case.ts";
import type { AcceptedDecisions } from "../decisions.ts";
import { type Description, type DocumentedResponse, operationOf, type ValueProblem } from "../description.ts";
import { readTriggerList } from "../trigger-list.ts";
import type { CatalogEntry } from "./entry.ts";
import type { ProbeFamily } from "./family.ts";
import { type ExchangeCheck, notApplicable, type SchemaFailed, shown, type Verdict } from "./types.ts";

/**
 * Whether the description documents this very 5xx for the operation, by its own status rather than a range or
 * `default`: the 500s the seed's Errors table states (the trigger list's internal error, the fire's failed
 * validation), each "the body carries details".
 */
export const statedServerError = (description: Description, operationId: string, status: number): boolean =>
  status >= 500 && description.operations.get(operationId)?.responses.has(String(status)) === true;

/** The documented response for the exchange's status; undefined for a request outside the description's operations. */
function documentedFor(exchange: Exchange, description: Description): DocumentedResponse | undefined | typeof notApplicable {
  const operation = description.operations.get(exchange.case.operationId);
  if (!operation) return notApplicable;
  return description.documentedResponse(operation, exchange.status);
}

/** `not_a_server_error` for a request that got no answer at all (`reason`: refused, timed out, a body past the limit). */
export const noAnswer =
  (reason: string): ExchangeCheck =>
  () =>
    `expected a response; got none (${reason})`;

/**
 * No 5xx but one the seed states for the operation (the trigger list's 500, the fire's 500), which carries details
 * in its body as the seed says; when the server answers one is its own (the `documented_server_errors` finding).
 */
export const notAServerError: ExchangeCheck = (exchange, { description }) => {
  if (exchange.status < 500) return undefined;
  if (!statedServerError(description, exchange.case.operationId, exchange.status)) return `expected no server error; got ${exchange.status}`;
  // An answer to HEAD carries no content (RFC 9110 §9.3.2), so its details cannot be read.
  return exchange.text.trim() === "" && exchange.case.method !== "HEAD"
    ? `expected the ${exchange.status} the service documents for ${exchange.case.operationId} to carry details in its body; got an empty body`
    : undefined;
};

/** The status is one the description documents for the operation (exactly, by range, or `default`). */
export const statusCodeConformance: ExchangeCheck = (exchange, { description }) => {
  if (exchange.case.operationId === "export") return exchange.status === 200 ? undefined : `expected 200 from the export route; got ${exchange.status}`;
  const documented = documentedFor(exchange, description);
  if (documented === notApplicable) return notApplicable;
  // 406 answers an Accept without JSON: accept_negotiation judges it. A 304 answers a request's own precondition
  // (RFC 9110 §13.1.2, §15.4.5): the description documents no status of HTTP's conditional requests, and the
  // conditional_request relation judges it.
  if (documented || (exchange.case.accept !== undefined && exchange.status === 406) || (exchange.status === 304 && hasPrecondition(exchange))) return undefined;
  return `expected one of the documented statuses ${[...operationOf(description, exchange.case.operationId).responses.keys()].join(", ")}; got ${exchange.status}`;
};

/** Whether the request carried a precondition a 304 answers (RFC 9110 §13.1.2 If-None-Match, §13.1.3 If-Modified-Since). */
const hasPrecondition = (exchange: Exchange): boolean =>
  Object.keys(exchange.case.headers ?? {}).some((name) => name.toLowerCase() === "if-none-match" || name.toLowerCase() === "if-modified-since");

/** A response with a body carries a documented media type (or, for an error, one the team's config accepts). */
export const contentTypeConformance: ExchangeCheck = (exchange, { description, decisions }) => {
  if (exchange.case.accept !== undefined) return notApplicable; // accept_negotiation judges what an Accept without JSON gets
  if (exchange.text === "") return undefined;
  const documented = exchange.case.operationId === "export" ? undefined : documentedFor(exchange, description);
  if (documented === notApplicable) return notApplicable;
  const mediaTypes = exchange.case.operationId === "export" ? ["application/json"] : documented?.mediaTypes;
  if (!mediaTypes) return notApplicable;
  const received = mediaTypeOf(exchange.headers);
  if (mediaTypes.length === 0) return `expected no body for ${exchange.status}; got ${exchange.text.length} bytes of ${received || "untyped content"}`;
  if (mediaTypes.includes(received)) return undefined;
  if (exchange.status >= 400) {
    // The error media type is an open point: any JSON type (application/problem+json among them) holds, and any the team accepts.
    if (isJsonMediaType(received) || decisions.errorMediaTypes?.includes(received)) return undefined;
    return `expected an error body in a JSON media type (payloads are JSON; ${mediaTypes.join(" or ")} documented); got ${received || "none"}`;
  }
  return `expected Content-Type ${mediaTypes.join(" or ")}; got ${received || "none"}`;
};

/** The body is valid against the documented schema (for the export route, the closed export model). */
export const responseSchemaConformance: ExchangeCheck = (exchange, { description, decisions }) => {
  const documented = exchange.case.operationId === "export" ? undefined : documentedFor(exchange, description);
  if (documented === notApplicable) return notApplicable;
  const pointer =
    exchange.case.operationId === "export" ? (exchange.status === 200 ? "#/components/schemas/ConversationExport" : undefined) : documented?.schemaPointer;
  if (!pointer || exchange.text === "" || (exchange.case.accept !== undefined && !exchange.isJson)) return notApplicable;
  if (!exchange.isJson) return `expected a JSON body valid against ${pointer}; got a body that is not JSON`;
  if (exchange.case.operationId === "listExternalEventTriggers" && exchange.status === 200)
    return triggerListConformance(exchange.json, pointer, description, decisions);
  return schemaFailure(`expected a body valid against ${pointer}`, [
    ...description.problemsAt(pointer, exchange.json),
    ...openSpellingProblems(exchange, description),
  ]);
};

/** At most this many problems of a schema are said in one failure. */
const maxProblems = 5;

/** The failure of a value with these problems (`what` it was expected to be, then the first five): the words and each problem's place and keyword; undefined for none. */
function schemaFailure(what: string, problems: readonly ValueProblem[]): SchemaFailed | undefined {
  if (problems.length === 0) return undefined;
  const said = problems.slice(0, maxProblems);
  return {
    failed: `${what}; got: ${said.map((problem) => problem.text).join("; ")}`,
    problems: said.map(({ pointer, keyword }) => ({ pointer, keyword })),
  };
}

/**
 * A summary field whose spelling the seed gives only in part (an open string of the description with the spellings it
 * names as `examples`: "The outbound value is written `Outbound`; exact spelling of the inbound value: not shown"): a
 * named value in another letter case is that value misspelled, never the unnamed one. Identifiers (a schema titled
 * …Id) are left out: whether they ignore letter case is not shown.
 */
function openSpellingProblems(exchange: Exchange, description: Description): ValueProblem[] {
  if (exchange.case.operationId !== "searchConversations" || exchange.status !== 200) return [];
  const items = (exchange.json as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return [];
  const problems: ValueProblem[] = [];
  for (const { field, named } of openSpellingsOf(description)) {
    items.forEach((item, index) => {
      const sent = (item as Record<string, unknown> | null)?.[field];
      if (typeof sent !== "string") return;
      const misspelled = named.find((each) => each !== sent && each.toLowerCase() === sent.toLowerCase());
      if (misspelled === undefined) return;
      const at = `/items/${index}/${field}`;
      // The keyword is the schema's `examples`, where the description keeps the spellings the seed names.
      problems.push({ pointer: at, keyword: "examples", text: `${at}: expected "${misspelled}" as the seed spells it; got ${shown(sent)}` });
    });
  }
  return problems;
}

/** The summary fields with an open spelling, and the spellings the seed names for each: read once per description. */
const openSpellings = new WeakMap<Description, readonly { field: string; named: readonly string[] }[]>();

function openSpellingsOf(description: Description): readonly { field: string; named: readonly string[] }[] {
  let found = openSpellings.get(description);
  if (found !== undefined) return found;
  const properties = (description.resolve("#/components/schemas/ConversationSummary")["properties"] ?? {}) as Record<string, Record<string, unknown>>;
  found = Object.entries(properties).flatMap(([field, property]) => {
    // A named value schema only: an identifier's letter case (a channel's, ChannelId) is never judged, the seed being silent on it.
    if (typeof property["$ref"] !== "string") return [];
    const schema = description.resolve(property["$ref"]);
    const open = schema["type"] === "string" && schema["enum"] === undefined && !/Id$/.test(String(schema["title"]));
    const named = open && Array.isArray(schema["examples"]) ? (schema["examples"] as unknown[]).filter((each) => typeof each === "string") : [];
    return named.length > 0 ? [{ field, named }] : [];
  });
  openSpellings.set(description, found);
  return found;
}

/**
 * The trigger list's shape is an open point (array, one descriptor, or an array wrapped in an
 * object): each shape holds, its descriptors checked against the description's item schema, unless
 * the team's config names its server's shape, which then must be the one sent.
 */
function triggerListConformance(body: unknown, pointer: string, description: Description, decisions: AcceptedDecisions): Verdict {
  const list = readTriggerList(body);
  if (list.shape === "other")
    return `expected the trigger list as an array of descriptors, one descriptor, an object wrapping one array, or an object of descriptors keyed by externalEventId; got ${shown(body)}`;
  if (decisions.triggerListShape !== undefined && decisions.triggerListShape !== list.shape) {
    return `expected the trigger list in the shape the accepted decision names (triggerListShape: ${decisions.triggerListShape}); got ${list.shape}`;
  }
  return schemaFailure(`expected the trigger list's descriptors valid against ${pointer}`, description.problemsAt(pointer, list.triggers));
}

/** `application/json` and every `+json` media type (RFC 6839), such as `application/problem+json`. */
export const isJsonMediaType = (mediaType: string): boolean => mediaType === "application/json" || /^application\/[\w.-]+\+json$/.test(mediaType);

/** The `response-schema` probe family. */
export const responseSchemaFamily = {
  name: "response-schema",
  probes: "Every body against the description's schema: each field's type, required fields, the export model closed.",
  rules: [
    "dates-iso-8601",
    "summary-id",
    "summary-channel-id",
    "summary-messages-count",
    "summary-members",
    "summary-started-on",
    "summary-channel-data",
    "summary-latest-message-on",
    "summary-latest-message-text",
    "page-items",
    "export-closed",
    "export-id",
    "export-channel-id",
    "export-channel-data",
    "export-members",
    "export-history",
    "channel-data-platform",
    "channel-data-original-channel",
    "platform-session",
    "platform-client",
    "platform-options",
    "member-id",
    "member-name",
    "activity-id",
    "activity-timestamp",
    "message-text",
    "message-from",
    "message-recipient",
    "message-buttons",
    "message-recognized-intents",
    "message-knowledge-base-answers",
    "message-attachments",
    "trigger-external-event-id",
    "trigger-external-event-name",
    "trigger-parameters",
    "closing-may-be-null",
    "search-response",
    "triggers-response",
    "event-base",
  ],
} as const satisfies ProbeFamily;

/** The `spelled-values` probe family. */
export const spelledValuesFamily = {
  name: "spelled-values",
  probes:
    "Every value the seed spells (statuses, closing statuses and reasons, roles, activity types, event names, trigger names, `Outbound`), spelled exactly in every body.",
  rules: [
    "summary-status",
    "summary-members",
    "summary-latest-message-direction",
    "summary-closing-status",
    "summary-closing-reason",
    "enum-conversation-status",
    "enum-closing-status",
    "enum-closing-reason",
    "enum-role",
    "enum-activity-type",
    "enum-trigger-name",
    "enum-prompter-mode-event-name",
    "enum-event-name",
    "export-status",
    "export-closing-status",
    "export-closing-reason",
    "export-history",
    "member-role",
    "activity-type",
    "event-base",
    "event-successfull-service",
    "event-custom-event",
    "event-scenario-started",
    "event-menu-item-selected",
    "event-trigger-fired",
    "event-error",
    "event-prompt-accepted",
    "event-prompt-rejected",
    "event-create-platform-app-element",
    "event-start-process",
    "event-transfer-to-operator",
  ],
  // A value the seed spells (a status, a role, `Outbound`) is an enum or a const of the description.
  judgedOn: { keywords: ["enum", "const", "examples"] },
} as const satisfies ProbeFamily;

/** The `response-media-type` probe family. */
export const responseMediaTypeFamily = {
  name: "response-media-type",
  probes: "Every body carries a JSON media type the description documents.",
  rules: ["payloads-are-json"],
} as const satisfies ProbeFamily;

/** The `documented-statuses` probe family. */
export const documentedStatusesFamily = {
  name: "documented-statuses",
  probes:
    "Every status is one the operation documents; no 5xx but the 500s the seed states (the trigger list's internal error, the fire's failed validation), each with details in its body.",
  rules: ["errors-triggers-200", "errors-triggers-500", "version-path-segment"],
} as const satisfies ProbeFamily;

/** The catalog's entry of `not_a_server_error`. */
export const notAServerErrorEntry = {
  name: "not_a_server_error",
  description: "No 5xx but the 500s the seed states (the trigger list's internal error, the fire's failed validation), and those with details in the body.",
  rule: "Seed, Errors: the only 5xx the service states are the trigger list's 500 (internal server error) and the fire's 500 (variable values failed validation), each with details in the body.",
  onEvery: "response",
  check: notAServerError,
  phases: [],
  families: [documentedStatusesFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `status_code_conformance`. */
export const statusCodeConformanceEntry = {
  name: "status_code_conformance",
  description: "Every status is documented for its operation.",
  rule: "Description: the responses each operation lists (openapi/paths).",
  onEvery: "response",
  check: statusCodeConformance,
  phases: [],
  families: [documentedStatusesFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `content_type_conformance`. */
export const contentTypeConformanceEntry = {
  name: "content_type_conformance",
  description: "Every body carries a documented Content-Type.",
  rule: "Seed, General conventions: payloads are JSON; description: the media types of each response.",
  onEvery: "response",
  check: contentTypeConformance,
  phases: [],
  families: [responseMediaTypeFamily],
} as const satisfies CatalogEntry;

/** The catalog's entry of `response_schema_conformance`. */
export const responseSchemaConformanceEntry = {
  name: "response_schema_conformance",
  description: "Every body is valid against the description (the export model closed included).",
  rule: "Description: the response schemas; seed, Conversation export model: no additional properties except on Attachment.",
  onEvery: "response",
  check: responseSchemaConformance,
  phases: ["export route"],
  families: [responseSchemaFamily, spelledValuesFamily],
} as const satisfies CatalogEntry;
