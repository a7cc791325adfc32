import type { ConversationExport, ConversationSummary, MessageActivity } from "@bot-conversation/types";
import { serviceDescription } from "../description.ts";
import type { StoredConversation } from "../model.ts";

/** What a conversation is searched and sorted by, derived from its export when it is loaded. */
export interface ConversationColumns {
  /** Start, epoch ms. */
  readonly startedOnMs: number;
  /** Time of the last message, epoch ms. */
  readonly latestMessageOnMs: number;
  /** Platform session identifier, or `null`. */
  readonly sessionId: string | null;
  /** Whether the user (not the bot) sent the last message. */
  readonly latestMessageInbound: boolean;
}

/** The outbound spelling, as the description gives it (the seed writes `Outbound`). */
export const outbound = String(serviceDescription.components.schemas["MessageDirection"]?.examples?.[0] ?? "Outbound");

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
    messagesCount: messagesIn(conversation.history),
    members: conversation.members.map((member) => ({ id: member.id, name: member.name, nickname: null, role: member.role })),
    startedOn: stored.startedOn,
    channelData: conversation.channelData,
    latestMessageOn: latest?.timestamp ?? stored.startedOn,
    latestMessageText: latest?.text ?? "",
    closingStatus: conversation.closingStatus,
    closingReason: conversation.closingReason,
  };
}

/** The number of messages in a history (counted, not filtered into a new list: loading 100,000 counts each). */
function messagesIn(history: ConversationExport["history"]): number {
  let count = 0;
  for (const activity of history) if (activity.type === "Message") count++;
  return count;
}

/**
 * The export a summary is made from, the other way round: the summary's own fields with the members and the
 * history the caller made for it (the examples invent a history, the recorder rebuilds one from the summary alone).
 */
export function exportFromSummary(summary: ConversationSummary, members: ConversationExport["members"], history: MessageActivity[]): ConversationExport {
  const { id, channelId, status, closingStatus, closingReason, channelData } = summary;
  return { id, channelId, status, closingStatus, closingReason, channelData, members, history };
}

/** What is stored for a conversation besides its export: the columns it is searched and sorted by (its summary is `openSummaryOf`). */
export function columnsOf(stored: StoredConversation): ConversationColumns {
  const latest = lastMessage(stored);
  return {
    startedOnMs: Date.parse(stored.startedOn),
    latestMessageOnMs: Date.parse(latest?.timestamp ?? stored.startedOn),
    sessionId: stored.conversation.channelData?.platform.session.id ?? null,
    latestMessageInbound: latest !== undefined && latest.from.role !== "Bot",
  };
}

/**
 * The search summary of a conversation as JSON text without `latestMessageDirection` and without its closing brace:
 * the direction is appended when a page is written.
 */
export function openSummaryOf(stored: StoredConversation): string {
  return JSON.stringify(summarize(stored, lastMessage(stored))).slice(0, -1);
}

const encoder = new TextEncoder();

/**
 * A page body from stored summaries (UTF-8 JSON, each without `latestMessageDirection` and its closing
 * brace) and the rest of the envelope (JSON text of an object, ASCII: numbers and booleans): each summary
 * gets `Outbound`, or the `inboundDirection` switch when the user sent the last message. Bytes are
 * joined, not parsed, since searches serve many.
 */
export function pageBody(items: readonly { openSummary: Uint8Array; inbound: boolean }[], inboundDirection: string, envelope: string): Uint8Array<ArrayBuffer> {
  const directions = directionBytes(inboundDirection);
  // `],` then the envelope's fields (its opening brace dropped).
  let size = itemsOpen.length + Math.max(0, items.length - 1) + 2 + envelope.length - 1;
  for (const item of items) size += item.openSummary.length + directions[item.inbound ? 1 : 0]!.length;
  const body = bodyBytes(size);
  body.set(itemsOpen, 0);
  let offset = itemsOpen.length;
  for (let index = 0; index < items.length; index++) {
    const { openSummary, inbound } = items[index]!;
    if (index > 0) body[offset++] = comma;
    body.set(openSummary, offset);
    offset += openSummary.length;
    const direction = directions[inbound ? 1 : 0]!;
    body.set(direction, offset);
    offset += direction.length;
  }
  body[offset++] = closeBracket;
  body[offset++] = comma;
  for (let index = 1; index < envelope.length; index++) body[offset++] = envelope.charCodeAt(index);
  return body;
}

const itemsOpen = encoder.encode('{"items":[');
const comma = 0x2c;
const closeBracket = 0x5d;

/**
 * Page bodies are cut from slabs of this size: one allocation serves many responses, where a buffer
 * each made most of a search's allocation (a region is never reused; a slab is freed with its last body).
 */
const slabBytes = 256 * 1024;
let slab = new Uint8Array(0);
let slabUsed = 0;

/** A slab: in Node, memory that is not zero-filled first (every byte of a body is written before it is sent); elsewhere a plain array. */
const nodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow(size: number): Uint8Array<ArrayBuffer> } }).Buffer;
const newSlab = (size: number): Uint8Array<ArrayBuffer> => (nodeBuffer ? nodeBuffer.allocUnsafeSlow(size) : new Uint8Array(size));

function bodyBytes(size: number): Uint8Array<ArrayBuffer> {
  if (slabUsed + size > slab.length) {
    slab = newSlab(Math.max(slabBytes, size));
    slabUsed = 0;
  }
  const body = slab.subarray(slabUsed, slabUsed + size);
  slabUsed += size;
  return body;
}

const directionCache = new Map<string, Uint8Array[]>();

/** The bytes that end a summary, for the bot's last message and for the user's (the `inboundDirection` switch). */
function directionBytes(inboundDirection: string): Uint8Array[] {
  let cached = directionCache.get(inboundDirection);
  if (!cached)
    directionCache.set(
      inboundDirection,
      (cached = [outbound, inboundDirection].map((direction) => encoder.encode(`,"latestMessageDirection":${JSON.stringify(direction)}}`))),
    );
  return cached;
}
