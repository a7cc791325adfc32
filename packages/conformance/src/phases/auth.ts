import type { ExternalEventTrigger } from "@bot-conversation/types";
import { type Authentication, type Case, type CaseValues, caseFor } from "../case.ts";
import { credentialBeforeLookupFamily } from "../checks/auth.ts";
import { credentialNearMissesFamily, credentialOf } from "../credentials.ts";
import { operationOf } from "../description.ts";
import type { Session } from "../session.ts";
import { nearMissesOf } from "../variable-values.ts";
import { target, triggerFields, variablesByType } from "./fire.ts";
import { unknownIdentifier } from "./triggers.ts";

/**
 * `ignored_auth`: every operation with every bad credential of the token (`credentials.ts`: the
 * `credential-near-misses` and `credential-channels` families) is 401; so is a later page of a filtered
 * search with a wrong token. Requests name what the server has wherever that is safe: the known bot's
 * trigger list, and a fire into the known conversation with a value its type rules out (a server that
 * ignores the token refuses the value with a 500 instead of firing). Then `credential-before-lookup`:
 * an unknown bot, trigger and conversation named with a wrong token are 401 too (the seed's 401 does not
 * wait for the look-up).
 */
export async function checkAuthentication(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const unknownBot = unknownIdentifier(session, "bot");
  const send = async (request: Case): Promise<number | undefined> => (session.canSend ? (await session.exchange(request))?.exchange.status : undefined);
  const each = async (operationId: string, values: CaseValues): Promise<void> => {
    for (const authentication of session.settings.badCredentials ?? (["none", "wrong"] as Authentication[])) {
      await send({ ...caseFor(operationOf(session.description, operationId), { ...values, authentication }), family: credentialOf(authentication).family! });
    }
  };
  const beforeLookup = (operationId: string, values: CaseValues): Promise<number | undefined> =>
    send({ ...caseFor(operationOf(session.description, operationId), { ...values, authentication: "wrong" }), family: credentialBeforeLookupFamily });
  const bot = session.settings.agentStageId;
  await each("searchConversations", bot ? { query: { agentStageId: bot } } : {});
  await laterPageWithFilters(session);
  // Without a known bot, an unknown one: the seed's 401 does not wait for the look-up, so a 404 fails there too.
  await each("listExternalEventTriggers", { path: { agentStageId: bot ?? unknownBot } });
  await beforeLookup("listExternalEventTriggers", { path: { agentStageId: unknownBot } });
  if (session.settings.allowFire) {
    const guarded = guardedFire(session, triggers);
    if (guarded) await each("fireExternalEvent", { body: guarded });
    else session.results.skip("ignored_auth", "fireExternalEvent checked with unknown conversations only: needs a listed trigger with a variable");
    await beforeLookup("fireExternalEvent", { body: unknownFire(session) });
    await beforeLookup("fireExternalEvent", { body: { ...target(session), externalEventId: unknownIdentifier(session, "trigger") } });
  } else {
    session.results.skip("ignored_auth", "fireExternalEvent not checked: it is a POST (--allow-fire)");
  }
}

/** A later page of a search with two filters, asked for with a wrong token: the token is checked on every page. */
async function laterPageWithFilters(session: Session): Promise<void> {
  const status = [...session.knowledge.items.values()].map((item) => item["status"]).find((value): value is string => typeof value === "string");
  const channelId = session.knowledge.channelIds[0];
  const query: Record<string, string> = { ...(session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {}) };
  if (status) query["status"] = status;
  if (channelId) query["channelId"] = channelId;
  if (!session.canSend) return;
  await session.exchange({
    ...caseFor(operationOf(session.description, "searchConversations"), {
      query: { ...query, pageSize: "1", pageIndex: String(session.knowledge.pageBase + 1) },
      authentication: "wrong",
    }),
    family: credentialNearMissesFamily,
  });
}

/** A fire into the known conversation with a value of the wrong type: 401 expected; a server ignoring the token refuses the value rather than firing. */
function guardedFire(session: Session, triggers: readonly ExternalEventTrigger[]): Record<string, unknown> | undefined {
  const variable = variablesByType(triggers).values().next().value;
  if (!variable) return undefined;
  const nearMiss = nearMissesOf(variable.type, session.settings.seed)[0];
  if (!nearMiss) return undefined;
  return { ...target(session), ...triggerFields(session, variable.trigger), externalEventPayload: { [variable.code]: nearMiss.value } };
}

/** A fire naming an unknown conversation and trigger: nothing can fire whatever the token. */
const unknownFire = (session: Session): Record<string, unknown> => ({
  conversationId: unknownIdentifier(session, "conversation"),
  externalEventId: unknownIdentifier(session, "trigger"),
});
