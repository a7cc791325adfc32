import type { ExternalEventTrigger } from "@bot-conversation/types";
import { type Authentication, type Case, type CaseValues, caseFor } from "../case.ts";
import { operationOf } from "../description.ts";
import type { Session } from "../session.ts";
import { nearMissesOf } from "../variable-values.ts";
import { variablesByType } from "./fire.ts";
import { unknownIdentifier } from "./triggers.ts";

/** Every way of sending a bad credential; of the token's variants, those that are another token. */
function badCredentials(session: Session): Authentication[] {
  return ["none", "wrong", "empty", "query", ...(session.settings.tokenVariants ?? [])];
}

/**
 * `ignored_auth`: every operation without `X-Token`, with a wrong, empty, re-cased or spaced one, and
 * with the token only in the query string, is 401; so is a later page of a filtered search with a
 * wrong token. Requests name what the server has wherever that is safe: the known bot's trigger list,
 * and a fire into the known conversation with a value its type rules out (a server that ignores the
 * token refuses the value with a 500 instead of firing). Where only an unknown bot, trigger or
 * conversation can be named, a 404 is not judged (the seed states no order between 401 and 404), and
 * the unknown bot asked for with a wrong token tells which comes first (returned, for discovery).
 */
export async function checkAuthentication(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<number | undefined> {
  const unknownBot = unknownIdentifier(session, "bot");
  const send = async (request: Case): Promise<number | undefined> => (session.canSend ? (await session.exchange(request))?.exchange.status : undefined);
  const each = async (operationId: string, values: CaseValues, unknownTarget: boolean): Promise<void> => {
    for (const authentication of badCredentials(session)) {
      await send({ ...caseFor(operationOf(session.description, operationId), { ...values, authentication }), ...(unknownTarget ? { unknownTarget } : {}) });
    }
  };
  const bot = session.settings.agentStageId;
  await each("searchConversations", bot ? { query: { agentStageId: bot } } : {}, false);
  await laterPageWithFilters(session);
  await each("listExternalEventTriggers", { path: { agentStageId: bot ?? unknownBot } }, bot === undefined);
  const order = await send({
    ...caseFor(operationOf(session.description, "listExternalEventTriggers"), { path: { agentStageId: unknownBot }, authentication: "wrong" }),
    unknownTarget: true,
  });
  if (session.settings.allowFire) {
    const guarded = guardedFire(session, triggers);
    await each("fireExternalEvent", { body: guarded ?? unknownFire(session) }, guarded === undefined);
    await send({
      ...caseFor(operationOf(session.description, "fireExternalEvent"), { body: unknownFire(session), authentication: "wrong" }),
      unknownTarget: true,
    });
  } else {
    session.results.skip("ignored_auth", "fireExternalEvent not checked: it is a POST (--allow-fire)");
  }
  return order;
}

/** A later page of a search with two filters, asked for with a wrong token: the token is checked on every page. */
async function laterPageWithFilters(session: Session): Promise<void> {
  const status = [...session.knowledge.items.values()].map((item) => item["status"]).find((value): value is string => typeof value === "string");
  const channelId = session.knowledge.channelIds[0];
  const query: Record<string, string> = { ...(session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {}) };
  if (status) query["status"] = status;
  if (channelId) query["channelId"] = channelId;
  if (!session.canSend) return;
  await session.exchange(
    caseFor(operationOf(session.description, "searchConversations"), {
      query: { ...query, pageSize: "1", pageIndex: String(session.knowledge.pageBase + 1) },
      authentication: "wrong",
    }),
  );
}

/** A fire into the known conversation with a value of the wrong type: 401 expected; a server ignoring the token refuses the value rather than firing. */
function guardedFire(session: Session, triggers: readonly ExternalEventTrigger[]): Record<string, unknown> | undefined {
  const { conversationId, externalConversationId } = session.settings;
  const variable = variablesByType(triggers).values().next().value;
  if (!variable) return undefined;
  const nearMiss = nearMissesOf(variable.type)[0];
  if (!nearMiss) return undefined;
  return {
    ...(conversationId ? { conversationId } : { externalConversationId }),
    externalEventId: variable.trigger.externalEventId,
    externalEventPayload: { [variable.code]: nearMiss.value },
  };
}

/** A fire naming an unknown conversation and trigger: nothing can fire whatever the token. */
const unknownFire = (session: Session): Record<string, unknown> => ({
  conversationId: unknownIdentifier(session, "conversation"),
  externalEventId: unknownIdentifier(session, "trigger"),
});
