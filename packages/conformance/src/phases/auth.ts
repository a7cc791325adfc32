import { caseFor, type Authentication } from "../case.ts";
import type { Session } from "../session.ts";
import { unknownIdentifier } from "./triggers.ts";

/**
 * Every operation without `X-Token`, with a wrong or an empty one, and with the token in the query
 * string instead of the header, is 401 (`ignored_auth`, one of the response checks). The fire requests name an unknown
 * conversation and trigger, so nothing fires even on a server that ignores the token.
 */
export async function checkAuthentication(session: Session): Promise<void> {
  const unknownBot = unknownIdentifier(session, "bot");
  const values = {
    searchConversations: {},
    listExternalEventTriggers: { path: { agentStageId: session.settings.agentStageId ?? unknownBot } },
    fireExternalEvent: {
      body: { conversationId: unknownIdentifier(session, "conversation"), externalEventId: unknownIdentifier(session, "trigger") },
    },
  };
  for (const operation of session.description.operations.values()) {
    if (operation.method !== "GET" && !session.settings.allowFire) continue;
    for (const authentication of ["none", "wrong", "empty", "query"] satisfies Authentication[]) {
      const known = values[operation.id as keyof typeof values] ?? {};
      await session.exchange(caseFor(operation, { ...known, authentication }));
    }
  }
  if (!session.settings.allowFire) session.results.skip("ignored_auth", "fireExternalEvent not checked: it is a POST (--allow-fire)");
}
