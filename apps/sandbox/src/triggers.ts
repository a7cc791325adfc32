import type { SandboxContext } from "./context.ts";
import { problemResponse } from "./problem.ts";

/** `GET /api/v1/runtime/simple/external/events/{agentStageId}`: the bot's triggers, or 404 naming the unknown bot. */
export function listExternalEventTriggers(context: SandboxContext, agentStageId: string): Response {
  const { options } = context;
  const triggers = context.storage.triggersOf(agentStageId);
  if (triggers === undefined) return problemResponse(options.errorMediaType, 404, `No bot with agentStageId ${JSON.stringify(agentStageId)}.`);
  if (options.triggerList === "array") return Response.json(triggers);
  // The single-descriptor shape: the bot's first trigger alone; a bot without triggers has nothing to show.
  const [first] = triggers;
  return first ? Response.json(first) : problemResponse(options.errorMediaType, 404, `The bot ${JSON.stringify(agentStageId)} has no triggers.`);
}
