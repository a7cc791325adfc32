import type { ExternalEventTrigger } from "@bot-conversation/types";
import { caseFor, type Exchange } from "../case.ts";
import { notFound } from "../checks/fire.ts";
import { positiveDataAcceptance } from "../checks/index.ts";
import { operationOf } from "../description.ts";
import { pathValue } from "../generate.ts";
import type { Session } from "../session.ts";
import { readTriggerList } from "../trigger-list.ts";

const operationId = "listExternalEventTriggers";

/** A bot identifier no server has: derived from the seed, so a run can be replayed. */
export const unknownIdentifier = (session: Session, what: string): string => `conformance-unknown-${what}-${session.settings.seed}`;

/** Generated trigger-list requests (known bots and arbitrary identifiers): accepted (200, or 404 for no such bot). */
export async function exploreTriggers(session: Session): Promise<void> {
  const operation = operationOf(session.description, operationId);
  await session.explore(pathValue(session.knowledge.agentStageIds), async (agentStageId) => {
    const answer = await session.exchange(caseFor(operation, { path: { agentStageId } }), [["positive_data_acceptance", positiveDataAcceptance]]);
    return answer?.failed ?? [];
  });
}

/** The trigger list of an unknown bot is 404. */
export async function unknownBot(session: Session): Promise<void> {
  const operation = operationOf(session.description, operationId);
  await session.exchange(caseFor(operation, { path: { agentStageId: unknownIdentifier(session, "bot") } }), [
    ["unknown_bot_not_found", notFound("an unknown agentStageId")],
  ]);
}

/** The triggers of `--agent-stage-id` (as an array, whichever shape the server sent), and the exchange, for discovery. */
export async function listTriggers(session: Session): Promise<{ triggers: ExternalEventTrigger[]; exchange: Exchange } | undefined> {
  const agentStageId = session.settings.agentStageId;
  if (!agentStageId) return undefined;
  const answer = await session.exchange(caseFor(operationOf(session.description, operationId), { path: { agentStageId } }));
  if (answer?.exchange.status !== 200 || !answer.exchange.isJson) return undefined;
  const triggers = readTriggerList(answer.exchange.json).triggers.filter(
    (trigger): trigger is ExternalEventTrigger =>
      typeof trigger === "object" && trigger !== null && typeof (trigger as ExternalEventTrigger).externalEventId === "string",
  );
  return { triggers, exchange: answer.exchange };
}
