import { externalEventTriggersQueryOptions } from "@bot-conversation/query";
import type { ConversationSummary } from "@bot-conversation/types";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { client } from "./client.ts";
import { ErrorNotice } from "./ErrorNotice.tsx";
import { FireForm } from "./FireForm.tsx";

/** The triggers of the conversation's bot; choosing one opens its fire form. */
export function Triggers({ agentStageId, conversation }: { agentStageId: string; conversation: ConversationSummary }) {
  const triggers = useQuery(externalEventTriggersQueryOptions(client, agentStageId));
  const [chosen, setChosen] = useState<string | undefined>();
  const trigger = triggers.data?.find((candidate) => candidate.externalEventId === chosen);
  return (
    <>
      <h2>Conversation {conversation.id}</h2>
      <p>
        {conversation.status} on {conversation.channelId}, {conversation.messagesCount} messages
      </p>
      <h3>Triggers</h3>
      {triggers.isPending && <p>Loading triggers…</p>}
      {triggers.error && <ErrorNotice title="Triggers could not be loaded." error={triggers.error} onRetry={() => void triggers.refetch()} />}
      {triggers.data?.length === 0 && <p>This bot has no triggers.</p>}
      <ul className="triggers">
        {triggers.data?.map((candidate) => (
          <li key={candidate.externalEventId}>
            <button type="button" aria-pressed={candidate.externalEventId === chosen} onClick={() => setChosen(candidate.externalEventId)}>
              {candidate.externalEventName} <code>{candidate.externalEventId}</code>
            </button>
          </li>
        ))}
      </ul>
      {trigger && <FireForm key={`${conversation.id} ${trigger.externalEventId}`} conversationId={conversation.id} trigger={trigger} />}
    </>
  );
}
