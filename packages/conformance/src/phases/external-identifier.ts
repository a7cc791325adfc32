/**
 * The seed's external identifier of a conversation, held to the conversations the search lists: "A conversation
 * created originally in the platform's lines has the identifier `<SESSION_ID>|livechat`". A conversation of the
 * platform channel whose channel data names its session is found by that identifier, so a fire by it with a value its
 * type rules out is the seed's 500 (values that fail validation), never the 404 of "no conversation". The same value is
 * first fired into the given conversation: only a value the server refuses there is sent, so no event fires.
 */
import type { ExternalEventTrigger } from "@bot-conversation/types";
import { caseFor } from "../case.ts";
import { externalIdentifierFamily, payloadRejection } from "../checks/fire.ts";
import { operationOf } from "../description.ts";
import { ruledOut } from "../generate.ts";
import type { Session } from "../session.ts";
import { nearMissesOf } from "../variable-values.ts";
import { allVariables, target, triggerFields } from "./fire.ts";

/** The session of a conversation of the platform channel the search listed (the channel the seed names `platform`), and the conversation. */
function platformConversation(session: Session): { id: string; sessionId: string } | undefined {
  for (const [id, item] of session.knowledge.items) {
    const sessionId = (item["channelData"] as { platform?: { session?: { id?: unknown } } } | null | undefined)?.platform?.session?.id;
    if (item["channelId"] === "platform" && typeof sessionId === "string" && sessionId !== "") return { id, sessionId };
  }
  return undefined;
}

/** `payload_validation_rejection` of a fire naming a listed platform conversation by `<SESSION_ID>|livechat`: its 500, not a 404. */
export async function checkExternalIdentifier(session: Session, triggers: readonly ExternalEventTrigger[]): Promise<void> {
  const conversation = platformConversation(session);
  const variable = allVariables(triggers)[0];
  if (!conversation || !variable) return;
  const nearMiss = nearMissesOf(variable.type, session.settings.seed).find((miss) => ruledOut(variable, miss.value));
  if (!nearMiss || !session.canSend) return;
  const operation = operationOf(session.description, "fireExternalEvent");
  const fields = { ...triggerFields(session, variable.trigger), externalEventPayload: { [variable.code]: nearMiss.value } };
  const given = await session.exchange(caseFor(operation, { body: { ...target(session), ...fields } }));
  if (given?.exchange.status !== 500 || !session.canSend) return;
  const externalConversationId = `${conversation.sessionId}|livechat`;
  await session.exchange({ ...caseFor(operation, { body: { externalConversationId, ...fields } }), family: externalIdentifierFamily }, [
    [
      "payload_validation_rejection",
      payloadRejection(
        `${variable.code} (${variable.type}) = ${JSON.stringify(nearMiss.value)} (${nearMiss.what}) fired by externalConversationId ${externalConversationId}, conversation ${JSON.stringify(conversation.id)} of the platform as the search lists it`,
      ),
    ],
  ]);
}
