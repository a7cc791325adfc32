/**
 * The seed's external identifier of a conversation, held to the conversations the search lists: "A conversation
 * created originally in the platform's lines has the identifier `<SESSION_ID>|livechat`". A conversation of the
 * platform channel whose channel data names its session is found by that identifier, so a fire by it with a value its
 * type rules out is the seed's 500 (values that fail validation), never the 404 of "no conversation". Only a value the
 * server refused with the 500 for the given conversation is sent, so no event fires.
 */
import { caseFor } from "../case.ts";
import { externalIdentifierFamily, payloadRejection } from "../checks/fire.ts";
import { operationOf } from "../description.ts";
import type { Session } from "../session.ts";
import { type FirstRefusal, triggerFields } from "./fire.ts";

/** The session of a conversation of the platform channel the search listed (the channel the seed names `platform`), and the conversation. */
function platformConversation(session: Session): { id: string; sessionId: string } | undefined {
  for (const [id, item] of session.knowledge.items) {
    const sessionId = (item["channelData"] as { platform?: { session?: { id?: unknown } } } | null | undefined)?.platform?.session?.id;
    if (item["channelId"] === "platform" && typeof sessionId === "string" && sessionId !== "") return { id, sessionId };
  }
  return undefined;
}

/**
 * `payload_validation_rejection` of a fire naming a listed platform conversation by `<SESSION_ID>|livechat`: its 500,
 * not a 404. The value is the first wrong value the variable probes fired into the given conversation and saw answered
 * with the 500: so nothing is fired twice, and a server that took it (an event fired) is not sent it again.
 */
export async function checkExternalIdentifier(session: Session, refusals: readonly FirstRefusal[]): Promise<void> {
  const conversation = platformConversation(session);
  const refused = refusals.find((refusal) => refusal.status === 500);
  if (!conversation || !refused || !session.canSend) return;
  const { variable, value, what } = refused;
  const operation = operationOf(session.description, "fireExternalEvent");
  const fields = { ...triggerFields(session, variable.trigger), externalEventPayload: { [variable.code]: value } };
  const externalConversationId = `${conversation.sessionId}|livechat`;
  await session.exchange({ ...caseFor(operation, { body: { externalConversationId, ...fields } }), family: externalIdentifierFamily }, [
    [
      "payload_validation_rejection",
      payloadRejection(
        `${variable.code} (${variable.type}) = ${what} fired by externalConversationId ${externalConversationId}, conversation ${JSON.stringify(conversation.id)} of the platform as the search lists it`,
      ),
    ],
  ]);
}
