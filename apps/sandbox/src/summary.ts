import type { ConversationSummary, MessageActivity } from "@bot-conversation/types";
import { serviceDescription } from "./description.ts";
import type { StoredConversation } from "./store.ts";

/** What a conversation is searched and sorted by, derived from its export when it is loaded. */
export interface ConversationColumns {
  /** Start, epoch ms. */
  readonly startedOnMs: number;
  /** Time of the last message, epoch ms. */
  readonly latestMessageOnMs: number;
  /** Platform session identifier, or `null`. */
  readonly sessionId: string | null;
  /** The search summary as JSON text, without `latestMessageDirection`. */
  readonly summary: string;
  /** Whether the user (not the bot) sent the last message. */
  readonly latestMessageInbound: boolean;
}

/** The outbound spelling, as the description gives it (the seed writes `Outbound`). */
const outbound = String(serviceDescription.components.schemas["MessageDirection"]?.examples?.[0] ?? "Outbound");

/** A search summary without `latestMessageDirection`, whose inbound spelling is a switch applied when it is read. */
type SummaryWithoutDirection = Omit<ConversationSummary, "latestMessageDirection">;

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
function summarize(stored: StoredConversation, latest: MessageActivity | undefined): SummaryWithoutDirection {
  const { conversation } = stored;
  return {
    id: conversation.id,
    channelId: conversation.channelId,
    status: conversation.status,
    messagesCount: conversation.history.filter((activity) => activity.type === "Message").length,
    members: conversation.members.map((member) => ({ id: member.id, name: member.name, nickname: null, role: member.role })),
    startedOn: stored.startedOn,
    channelData: conversation.channelData,
    latestMessageOn: latest?.timestamp ?? stored.startedOn,
    latestMessageText: latest?.text ?? "",
    closingStatus: conversation.closingStatus,
    closingReason: conversation.closingReason,
  };
}

/** What is stored for a conversation besides its export: the columns it is searched and sorted by, and its summary. */
export function columnsOf(stored: StoredConversation): ConversationColumns {
  const latest = lastMessage(stored);
  return {
    startedOnMs: Date.parse(stored.startedOn),
    latestMessageOnMs: Date.parse(latest?.timestamp ?? stored.startedOn),
    sessionId: stored.conversation.channelData?.platform.session.id ?? null,
    summary: JSON.stringify(summarize(stored, latest)),
    latestMessageInbound: latest !== undefined && latest.from.role !== "Bot",
  };
}

const encoder = new TextEncoder();

/**
 * A page body from stored summaries (UTF-8 JSON, each without `latestMessageDirection`) and the rest
 * of the envelope (JSON text of an object): each summary gets `Outbound`, or the `inboundDirection`
 * switch when the user sent the last message. Bytes are joined, not parsed, since searches serve many.
 */
export function pageBody(items: readonly { summary: Uint8Array; inbound: boolean }[], inboundDirection: string, envelope: string): Uint8Array<ArrayBuffer> {
  const [open, comma, close] = ['{"items":[', ",", `],${envelope.slice(1)}`].map((text) => encoder.encode(text)) as [Uint8Array, Uint8Array, Uint8Array];
  const directions = [outbound, inboundDirection].map((direction) => encoder.encode(`,"latestMessageDirection":${JSON.stringify(direction)}}`));
  const parts: Uint8Array[] = [open];
  items.forEach((item, index) => {
    if (index > 0) parts.push(comma);
    parts.push(item.summary.subarray(0, -1), directions[item.inbound ? 1 : 0]!);
  });
  parts.push(close);
  const body = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  return body;
}
