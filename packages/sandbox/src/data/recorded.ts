/**
 * The inverse of the search summary (`engine/summary.ts`): a conversation seen only in a search page
 * rebuilt as a stored conversation whose summary, as the sandbox derives it, equals the one the service
 * sent (messages counted, the last message's time, text and direction, statuses, channel data,
 * members). The recorder (`bot-conversation record`) builds its fixture with it; what the summary does
 * not show (the earlier messages' texts and times, every event) is not invented: earlier messages are
 * empty texts with no timestamp.
 */
import type { ConversationMember, ConversationSummary, Member, MessageActivity } from "@bot-conversation/types";
import { exportFromSummary, outbound } from "../engine/summary.ts";
import type { StoredConversation } from "../model.ts";

export { fixtureDefects } from "./fixture.ts";

/** The most messages a rebuilt conversation holds (our choice: a summary claiming more is left out, not rebuilt into memory). */
export const maxRebuiltMessages = 10_000;

/** A conversation rebuilt from a summary, or why it cannot be. */
export type RebuiltConversation = { readonly stored: StoredConversation } | { readonly refused: string };

/** The member of the export: the summary's member without `nickname` (the sandbox writes `nickname: null`, the only value the service shows). */
const exportMember = (member: ConversationMember): Member => ({ id: member.id, name: member.name, role: member.role });

/**
 * The stored conversation of bot `agentStageId` whose summary is `summary`: `messagesCount` messages,
 * the last at `latestMessageOn` with `latestMessageText`, sent by a `Bot` member when the direction is
 * `Outbound` and by a `User` member otherwise (a member of that role made up, `<id>:bot` or `<id>:user`
 * with no name, when the summary lists none); the earlier ones with an empty text and a `null`
 * timestamp, so they change nothing a summary shows.
 */
export function conversationOfSummary(summary: ConversationSummary, agentStageId: string): RebuiltConversation {
  const count = summary.messagesCount;
  if (!Number.isSafeInteger(count) || count < 0) return { refused: `messagesCount: expected an integer of at least 0; got ${JSON.stringify(count)}` };
  if (count > maxRebuiltMessages) return { refused: `messagesCount: ${count} messages, more than the ${maxRebuiltMessages} a rebuilt conversation holds` };
  const members = (Array.isArray(summary.members) ? summary.members : []).map(exportMember);
  const memberOf = (role: "Bot" | "User"): Member =>
    members.find((member) => (role === "Bot" ? member.role === "Bot" : member.role !== "Bot")) ?? {
      id: `${summary.id}:${role.toLowerCase()}`,
      name: null,
      role,
    };
  const bot = memberOf("Bot");
  const user = memberOf("User");
  const inbound = summary.latestMessageDirection !== outbound;
  const message = (index: number, last: boolean): MessageActivity => ({
    id: `${summary.id}:message-${index + 1}`,
    type: "Message",
    timestamp: last ? summary.latestMessageOn : null,
    text: last ? summary.latestMessageText : "",
    from: last && inbound ? user : bot,
    recipient: last && inbound ? bot : user,
    buttons: null,
    recognizedIntents: null,
    knowledgeBaseAnswers: null,
    attachments: null,
  });
  const history = Array.from({ length: count }, (_, index) => message(index, index === count - 1));
  return { stored: { agentStageId, startedOn: summary.startedOn, conversation: exportFromSummary(summary, members, history) } };
}
