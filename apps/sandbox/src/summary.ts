import type { ConversationSummary, MessageActivity } from "@bot-conversation/types";
import { serviceDescription } from "./description.ts";
import type { ConversationColumns, StoredConversation } from "./storage.ts";

/** The outbound spelling, as the description gives it (the seed writes `Outbound`). */
const outbound = String(serviceDescription.components.schemas["MessageDirection"]?.examples?.[0] ?? "Outbound");

function lastMessage(stored: StoredConversation): MessageActivity | undefined {
  return stored.conversation.history.findLast((activity): activity is MessageActivity => activity.type === "Message");
}

/**
 * The search summary of a conversation, derived from its export: members (with `nickname: null`,
 * the only value the service shows), message count, last message, channel data and statuses.
 * The last message is the last `Message` of the history; when its timestamp is `null`, or there is
 * no message, `latestMessageOn` is the start of the conversation (and the text is empty, the
 * direction outbound): the sandbox's choice, the service does not say.
 */
export function summarize(stored: StoredConversation, inboundDirection: string): ConversationSummary {
  const { conversation } = stored;
  const latest = lastMessage(stored);
  return {
    id: conversation.id,
    channelId: conversation.channelId,
    status: conversation.status,
    messagesCount: conversation.history.filter((activity) => activity.type === "Message").length,
    members: conversation.members.map((member) => ({ id: member.id, name: member.name, nickname: null, role: member.role })),
    startedOn: stored.startedOn,
    channelData: conversation.channelData,
    latestMessageOn: latest?.timestamp ?? stored.startedOn,
    latestMessageDirection: latest === undefined || latest.from.role === "Bot" ? outbound : inboundDirection,
    latestMessageText: latest?.text ?? "",
    closingStatus: conversation.closingStatus,
    closingReason: conversation.closingReason,
  };
}

/** The columns a conversation is searched and sorted by. */
export function columnsOf(stored: StoredConversation): ConversationColumns {
  const latest = lastMessage(stored);
  return {
    startedOnMs: Date.parse(stored.startedOn),
    latestMessageOnMs: Date.parse(latest?.timestamp ?? stored.startedOn),
    sessionId: stored.conversation.channelData?.platform.session.id ?? null,
  };
}
