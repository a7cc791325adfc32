import { operationParameters, serviceDescription } from "../description.ts";
import { type Answer, jsonAnswer } from "./answer.ts";
import { type OperationContext, refusal } from "./context.ts";
import { problemAnswer } from "./problem.ts";
import { queryChecker } from "./request.ts";

const checkQuery = queryChecker(operationParameters(serviceDescription, "listExternalEventTriggers"));

/**
 * `GET /api/v1/runtime/simple/external/events/{agentStageId}`: the bot's triggers, or 404 naming the
 * unknown bot. A query parameter (the operation has none) is treated as the search treats an unlisted
 * one: a 400 naming it, or ignored, by the `unknownParameters` switch.
 */
export function listExternalEventTriggers(context: OperationContext, agentStageId: string, query: URLSearchParams): Answer {
  const { options } = context;
  const checked = checkQuery(query, { rejectUnknown: options.unknownParameters === "reject" });
  if (!checked.ok) return refusal(context, checked);
  const triggers = context.index().triggersOf(agentStageId);
  if (triggers === undefined) return problemAnswer(options.errorMediaType, 404, `No bot with agentStageId ${JSON.stringify(agentStageId)}.`);
  if (options.triggerList === "array") return jsonAnswer(triggers);
  // The single-descriptor shape: the bot's first trigger alone; a bot without triggers has nothing to show.
  const [first] = triggers;
  return first ? jsonAnswer(first) : problemAnswer(options.errorMediaType, 404, `The bot ${JSON.stringify(agentStageId)} has no triggers.`);
}
