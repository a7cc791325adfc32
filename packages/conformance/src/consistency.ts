/**
 * Consistency across operations, from the seed's words (issue 48, item 3): what a search says of a conversation
 * agrees with the conversation's export; what the trigger list says agrees with what a fire accepts; what a fire
 * changes is only the conversation it names; operations sent at once answer as they do in turn. Each is a relation
 * between the answers of two operations (or of one operation at two times), counted in the report beside the
 * metamorphic relations (`relations.ts`) and failed under `operation_consistency` only where the seed's words tie
 * the two answers; the rest is the `relation_differences` finding. This module only judges: the phases that send
 * are `phases/consistency.ts`.
 */
import { parseDateTime } from "@bot-conversation/client";
import type { Exchange } from "./case.ts";
import type { CatalogEntry } from "./checks/entry.ts";
import type { ProbeFamily } from "./checks/family.ts";
import { canonical } from "./checks/model.ts";
import { shown } from "./checks/types.ts";
import type { Description } from "./description.ts";
import { type RelationVerdict, sameAnswer } from "./relations.ts";

/** A relation between operations: its name in the report, what it does, and what it rests on. */
export interface ConsistencyRelation {
  readonly name: string;
  readonly description: string;
  readonly rule: string;
}

/** The four relations across operations, in report order. */
export const consistencyRelations = {
  searchAsExport: {
    name: "search_as_export",
    description:
      "A conversation's summary in a search against its export (--export-path): every field the two models share, the members, the number of messages and the last message.",
    rule: 'Seed, Resources: the summary\'s fields name the conversation\'s own (id, channelId, status, closingStatus, closingReason, channelData, members); messagesCount is the "number of messages in the conversation", latestMessageOn and latestMessageText the time and text of "the last message", and the export holds the conversation "with its members and its history of activities (messages and events)".',
  },
  listedTriggerFires: {
    name: "listed_trigger_fires",
    description: "Each trigger the list names, fired into the given conversation with a right value for every variable it lists: taken (200).",
    rule: 'Seed, Endpoints 2 and 3: the trigger list is "the list of all triggers that can be fired for the bot" and the fillable variables "are obtained from operation 2"; a fire is 404 only for an unknown trigger or conversation and 500 only for values that fail validation.',
  },
  fireChangesItsConversation: {
    name: "fire_changes_its_conversation",
    description:
      "Every conversation read before and after the run's fires: none appears or goes, none but the one fired into changes (read twice before the fires: data that moves by itself is not judged).",
    rule: 'Seed, What the service does 3: a fire sends "an external event into an existing conversation"; nothing says it creates, removes or changes another. How the fired conversation changes (a scenario\'s effects) is not shown: a finding.',
  },
  concurrentAsSequential: {
    name: "concurrent_as_sequential",
    description: "Requests already answered in turn, sent again all at once: the same answers (read in turn again after: data that moved is not judged).",
    rule: "RFC 9110 §9.2.1-§9.2.2 (GET is safe and idempotent: its answer depends on the resource, not on other requests in flight) and the seed's search and trigger list, which state no dependence on other requests.",
  },
} as const satisfies Record<string, ConsistencyRelation>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The property names of a schema of the description, `$ref`s followed. */
function propertiesOf(description: Description, schema: Record<string, unknown>): string[] {
  const resolved = typeof schema["$ref"] === "string" ? description.resolve(schema["$ref"]) : schema;
  return Object.keys((resolved["properties"] as Record<string, unknown> | undefined) ?? {});
}

/** The fields of the summary and of the export the description gives the same name, the members aside (compared by id). */
function sharedFields(description: Description): { fields: string[]; memberFields: string[] } {
  const summary = description.resolve("#/components/schemas/ConversationSummary");
  const exported = description.resolve("#/components/schemas/ConversationExport");
  const exportedFields = propertiesOf(description, exported);
  const fields = propertiesOf(description, summary).filter((name) => exportedFields.includes(name) && name !== "members");
  const members = ((exported["properties"] as Record<string, Record<string, unknown>>)["members"]?.["items"] ?? {}) as Record<string, unknown>;
  return { fields, memberFields: propertiesOf(description, members) };
}

/**
 * `search_as_export`: a summary as a search showed it against the conversation's export. Every field the two models
 * share is the same value, each member of the export is in the summary with the same values of the export's member
 * fields (and no other member), `messagesCount` is the number of `Message` activities in the history, and where the
 * last message is plain (the last `Message` of the history is also the latest by its timestamp), `latestMessageOn`
 * names its instant and `latestMessageText` is its text. An export that is not an object is the schema check's.
 */
export function searchAgreesWithExport(summary: Readonly<Record<string, unknown>>, exported: unknown, description: Description): RelationVerdict {
  if (!isObject(exported)) return { difference: `the export of ${shown(summary["id"])} is not a JSON object` };
  const { fields, memberFields } = sharedFields(description);
  const problems: string[] = [];
  for (const field of fields)
    if (canonical(summary[field]) !== canonical(exported[field]))
      problems.push(`${field}: the search says ${shown(summary[field])}, the export ${shown(exported[field])}`);
  const listed = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);
  const summaryMembers = listed(summary["members"]);
  const exportMembers = listed(exported["members"]);
  for (const member of exportMembers) {
    const own = summaryMembers.find((each) => each["id"] === member["id"]);
    if (!own) problems.push(`members: the export's member ${shown(member["id"])} is not among the search's`);
    else
      for (const field of memberFields)
        if (canonical(own[field]) !== canonical(member[field]))
          problems.push(`members: ${field} of ${shown(member["id"])} is ${shown(own[field])} in the search, ${shown(member[field])} in the export`);
  }
  for (const member of summaryMembers)
    if (!exportMembers.some((each) => each["id"] === member["id"])) problems.push(`members: the search's member ${shown(member["id"])} is not in the export`);
  const messages = listed(exported["history"]).filter((activity) => activity["type"] === "Message");
  if (summary["messagesCount"] !== messages.length)
    problems.push(`messagesCount: the search says ${shown(summary["messagesCount"])}, the export's history holds ${messages.length} messages`);
  const last = messages.at(-1);
  const instants = messages.map((message) => parseDateTime(message["timestamp"]));
  const lastInstant = instants.at(-1);
  // The last message is plain only when it is last both in the history and by its time: the seed says "the last message", not which order.
  if (last && lastInstant !== undefined && !Number.isNaN(lastInstant) && instants.slice(0, -1).every((instant) => instant < lastInstant)) {
    // A latestMessageOn without an offset names no instant (an open point: the seed states an offset for startedOn only).
    const latest = parseDateTime(summary["latestMessageOn"]);
    if (!Number.isNaN(latest) && latest !== lastInstant)
      problems.push(`latestMessageOn: the search says ${shown(summary["latestMessageOn"])}, the export's last message is at ${shown(last["timestamp"])}`);
    if (summary["latestMessageText"] !== last["text"])
      problems.push(`latestMessageText: the search says ${shown(summary["latestMessageText"])}, the export's last message says ${shown(last["text"])}`);
  }
  return problems.length === 0
    ? undefined
    : { failure: `expected the search's summary of ${shown(summary["id"])} to agree with its export; ${problems.slice(0, 4).join("; ")}` };
}

/**
 * `listed_trigger_fires`: a fire of a listed trigger into the given conversation, every listed variable at a right value,
 * is not answered "no such trigger": a 404 breaks the seed's words (the conversation the run confirmed). Whether right
 * values are taken is `payload_acceptance`'s to judge (the phase applies it to the same fire); any other answer is a
 * difference.
 */
export function listedTriggerFired(trigger: string, fire: Exchange): RelationVerdict {
  if (fire.status >= 200 && fire.status < 300) return undefined;
  if (fire.status === 404)
    return {
      failure: `expected the trigger ${shown(trigger)}, which the trigger list names, to fire (the list is of "all triggers that can be fired"); got 404`,
    };
  return { difference: `the listed trigger ${shown(trigger)} fired with right values was answered ${fire.status}` };
}

/** The conversations one full read of the search found, by id, each summary as read; undefined when the read did not hold. */
export type ConversationsRead = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

/** How two reads of every conversation differ: ids only in one, and the fields that changed for each id in both. */
export function changesBetween(before: ConversationsRead, after: ConversationsRead): { appeared: string[]; gone: string[]; changed: Map<string, string[]> } {
  const appeared = [...after.keys()].filter((id) => !before.has(id));
  const gone = [...before.keys()].filter((id) => !after.has(id));
  const changed = new Map<string, string[]>();
  for (const [id, summary] of before) {
    const later = after.get(id);
    if (!later) continue;
    const fields = [...new Set([...Object.keys(summary), ...Object.keys(later)])].filter((field) => canonical(summary[field]) !== canonical(later[field]));
    if (fields.length > 0) changed.set(id, fields);
  }
  return { appeared, gone, changed };
}

/**
 * `fire_changes_its_conversation`: every conversation before and after the fires. A conversation that appeared or went,
 * or one other than `fired` that changed, fails; the fired one's changes are a difference (what a scenario does is
 * not shown). `fired` is undefined when the run fired by an external identifier it could not map to a conversation.
 */
export function fireChangedOnly(before: ConversationsRead, after: ConversationsRead, fired: string | undefined): RelationVerdict {
  const { appeared, gone, changed } = changesBetween(before, after);
  const others = [...changed].filter(([id]) => id !== fired);
  const problems = [
    ...(appeared.length > 0 ? [`${appeared.length} conversations appeared (first ${shown(appeared[0])})`] : []),
    ...(gone.length > 0 ? [`${gone.length} conversations went (first ${shown(gone[0])})`] : []),
    ...others.slice(0, 3).map(([id, fields]) => `${shown(id)} changed its ${fields.join(", ")}`),
  ];
  if (problems.length > 0)
    return { failure: `expected the fires into ${shown(fired ?? "the given conversation")} to change no other conversation; ${problems.join("; ")}` };
  const own = fired === undefined ? undefined : changed.get(fired);
  return own ? { difference: `the conversation fired into changed its ${own.join(", ")}` } : undefined;
}

/** `concurrent_as_sequential`: the answer to a request sent among others at once, against its answer in turn. */
export function concurrentAgrees(inTurn: Exchange, atOnce: Exchange): RelationVerdict {
  const different = sameAnswer(inTurn, atOnce);
  return different ? { failure: `expected the same answer sent with others at once as sent alone; ${different}` } : undefined;
}

/** The `operation-consistency` probe family. */
export const operationConsistencyFamily = {
  name: "operation-consistency",
  probes:
    "Each operation against another: a search's summary against the conversation's export (--export-path: every field the two share, the members, messagesCount as the messages of the history, the last message's time and text); each listed trigger fired with every variable it lists at a right value; every conversation read before and after the fires (only the one fired into may change); requests answered in turn sent again all at once (the same answers).",
  rules: [
    "summary-channel-id",
    "summary-status",
    "summary-messages-count",
    "summary-members",
    "summary-channel-data",
    "summary-latest-message-on",
    "summary-latest-message-text",
    "summary-closing-status",
    "summary-closing-reason",
    "triggers-response",
    "fire-into-a-conversation",
    "fire-rule-not-found",
    "fire-rule-validation",
  ],
} as const satisfies ProbeFamily;

/** The catalog's entry of `operation_consistency`. */
export const operationConsistencyEntry = {
  name: "operation_consistency",
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
  families: [operationConsistencyFamily],
} as const satisfies CatalogEntry;
