/**
 * The phases of the relations across operations (`consistency.ts`): a search's summary against the export (in
 * `export.ts`, where the exports are read), requests answered in turn sent again at once, each listed trigger fired
 * with every variable it lists, and every conversation read before and after the run's fires.
 */
import type { ExternalEventTrigger } from "@bot-conversation/types";
import { type Case, caseFor, type Exchange } from "../case.ts";
import { payloadAcceptance } from "../checks/fire.ts";
import { pageOf } from "../checks/paging.ts";
import { notApplicable, notJudged } from "../checks/types.ts";
import { type ConversationsRead, changesBetween, concurrentAgrees, consistencyRelations, fireChangedOnly, listedTriggerFired } from "../consistency.ts";
import { operationOf } from "../description.ts";
import { familiarValues } from "../generate.ts";
import type { Session } from "../session.ts";
import { allVariables, target, triggerFields } from "./fire.ts";

/** How many requests answered in turn are sent again at once (the walk's pages first, then other searches and the trigger list). */
const atOnce = 8;
/** How many pages a read of every conversation takes at most: a larger server is not read three times over. */
const maxReadPages = 20;
/** How many listed triggers are fired (each a real event). */
const maxTriggersFired = 10;

/** `relation` marks a request a relation made: no metamorphic relation transforms it again, and it teaches the run nothing new. */
const marked = (request: Case, relation: string): Case => ({ ...request, relation });

/**
 * `concurrent_as_sequential`: requests the run already sent as described (the walk's pages, then the first other
 * searches and the bot's trigger list) are sent in turn, then all at once, then in turn again; each answer at once
 * must be its answer in turn, unless the two answers in turn differ (the data moved: not judged).
 */
export async function checkConcurrentAnswers(session: Session): Promise<void> {
  const relation = consistencyRelations.concurrentAsSequential;
  if (!session.runs("operation_consistency")) return;
  const requests: Case[] = [];
  const add = (request: Case): void => {
    if (requests.length < atOnce && !requests.some((each) => JSON.stringify(each) === JSON.stringify(request))) requests.push(request);
  };
  for (const page of session.knowledge.walk ?? []) add(page.case);
  for (const page of session.knowledge.pages) if (Object.keys(page.case.query).length > 1) add(page.case);
  const bot = session.settings.agentStageId;
  if (bot) add(caseFor(operationOf(session.description, "listExternalEventTriggers"), { path: { agentStageId: bot } }));
  if (requests.length < 2) return;
  const inTurn = async (): Promise<(Exchange | undefined)[]> => {
    const answers: (Exchange | undefined)[] = [];
    for (const request of requests) answers.push(session.canSend ? (await session.exchange(marked(request, relation.name)))?.exchange : undefined);
    return answers;
  };
  const first = await inTurn();
  const together = await Promise.all(
    requests.map(async (request) => (session.canSend ? (await session.exchange(marked(request, relation.name)))?.exchange : undefined)),
  );
  const again = await inTurn();
  for (let index = 0; index < requests.length; index++) {
    const [before, concurrent, after] = [first[index], together[index], again[index]];
    if (!before || !concurrent || !after) continue;
    session.relationCount(relation).transformed += 1;
    if (concurrentAgrees(before, after) === undefined) session.recordRelation(relation, concurrent, concurrentAgrees(before, concurrent), [before]);
    else session.record("operation_consistency", concurrent, notJudged("the same request answered another way twice in turn: the data moved during the run"));
  }
}

/**
 * `listed_trigger_fires`: each listed trigger (at most ten) fired into the given conversation with every variable it
 * lists at the familiar right value of its type (a variable of a type the seed does not list is left out): real events.
 */
export async function checkListedTriggersFire(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const relation = consistencyRelations.listedTriggerFires;
  if (!session.runs("operation_consistency")) return;
  const operation = operationOf(session.description, "fireExternalEvent");
  for (const trigger of triggers.slice(0, maxTriggersFired)) {
    if (!session.canSend) return;
    const payload: Record<string, unknown> = {};
    for (const variable of allVariables([trigger])) {
      const [value] = familiarValues(variable);
      if (value !== undefined) payload[variable.code] = value;
    }
    const body = { ...target(session), ...triggerFields(session, trigger), ...(Object.keys(payload).length > 0 ? { externalEventPayload: payload } : {}) };
    const answer = await session.exchange(caseFor(operation, { body }), [
      // A 404 is listed_trigger_fires' to judge (the trigger the list names, unknown to the fire); any other answer is payload_acceptance's.
      [
        "payload_acceptance",
        (exchange, context) =>
          exchange.status === 404
            ? notApplicable
            : payloadAcceptance(`every variable of ${trigger.externalEventId} at a right value (${JSON.stringify(payload)})`)(exchange, context),
      ],
    ]);
    if (!answer) continue;
    session.relationCount(relation).transformed += 1;
    session.recordRelation(relation, answer.exchange, listedTriggerFired(trigger.externalEventId, answer.exchange), []);
  }
}

/** Every conversation of the bot (or every one), read page by page at the walk's page size; undefined when a page was no page. */
async function readConversations(session: Session): Promise<{ read: ConversationsRead; last: Exchange } | undefined> {
  const operation = operationOf(session.description, "searchConversations");
  const bot = session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {};
  const walked = session.knowledge.walk?.[0] && pageOf(session.knowledge.walk[0]);
  const pageSize = walked ? { pageSize: String(walked.pageSize) } : {};
  const read = new Map<string, Record<string, unknown>>();
  let last: Exchange | undefined;
  for (let index = 0; index < maxReadPages && session.canSend; index++) {
    const answer = await session.exchange(
      marked(
        caseFor(operation, { query: { ...bot, ...pageSize, pageIndex: String(session.knowledge.pageBase + index) } }),
        consistencyRelations.fireChangesItsConversation.name,
      ),
    );
    const page = answer && pageOf(answer.exchange);
    if (!answer || !page) return undefined;
    last = answer.exchange;
    for (const item of page.items) read.set(item.id, item as unknown as Record<string, unknown>);
    if (!page.hasMore) return { read, last };
  }
  return undefined;
}

/** Every conversation read twice before the fires: the second read is the one compared, the first tells whether the data moves by itself. */
export async function readBeforeFires(session: Session): Promise<readonly ConversationsRead[] | undefined> {
  if (!session.runs("operation_consistency")) return undefined;
  const first = await readConversations(session);
  const second = first && (await readConversations(session));
  return first && second ? [first.read, second.read] : undefined;
}

/** The conversation the run fires into, by its id: given, or the one whose platform session the external identifier names. */
function firedConversation(session: Session, read: ConversationsRead): string | undefined {
  const { conversationId, externalConversationId } = session.settings;
  if (conversationId) return conversationId;
  const sessionId = externalConversationId?.replace(/\|livechat$/, "");
  for (const [id, summary] of read) {
    const platform = (summary["channelData"] as { platform?: { session?: { id?: unknown } } } | null | undefined)?.platform;
    if (platform?.session?.id === sessionId) return id;
  }
  return undefined;
}

/** `fire_changes_its_conversation`: every conversation read after the fires against the read before them. */
export async function checkWhatFiresChanged(session: Session, before: readonly ConversationsRead[] | undefined): Promise<void> {
  const relation = consistencyRelations.fireChangesItsConversation;
  if (!before || !session.knowledge.log.some((entry) => entry.exchange)) return;
  const after = await readConversations(session);
  if (!after) return;
  const [first, second] = before as [ConversationsRead, ConversationsRead];
  session.relationCount(relation).transformed += 1;
  const moved = changesBetween(first, second);
  if (moved.appeared.length + moved.gone.length + moved.changed.size > 0)
    return session.record(
      "operation_consistency",
      after.last,
      notJudged("the conversations changed between two reads before any fire: the data moves by itself"),
    );
  session.recordRelation(relation, after.last, fireChangedOnly(second, after.read, firedConversation(session, second)), []);
}
