import type { ConversationExport, ConversationSummary, ExternalEventTrigger, MessageActivity } from "@bot-conversation/types";
import { serviceDescription } from "../description.ts";
import { exportFromSummary } from "../engine/summary.ts";
import type { StoredBot, StoredConversation } from "../model.ts";
import { formatWithOffset } from "./dates.ts";

/** A named example of the bundled description, by its component name. */
function example<T>(name: string): T {
  const found = (serviceDescription.components as { examples?: Record<string, { value?: unknown }> }).examples?.[name];
  if (found?.value === undefined) throw new Error(`The bundled description has no example ${name}`);
  return structuredClone(found.value) as T;
}

/** The bot, triggers and conversations the description's examples name, as sandbox data. */
export interface ExampleData {
  /** The example bot (`agentStageId` of the parameter examples) with the triggers of `ExternalEventTriggerArray`. */
  readonly bot: StoredBot & { readonly name: string };
  /** Every conversation of the search examples, with the export of `ConversationExportFull` where the description gives one. */
  readonly conversations: readonly StoredConversation[];
}

/**
 * Reads the description's examples into sandbox data, so that a request written against the mock
 * (which answers with these examples) finds the same bot, triggers and conversations in the
 * sandbox. A conversation whose export the description does not give gets one built from its
 * summary: its members, `messagesCount` messages, the last with `latestMessageOn`, the text and
 * the direction of the summary (the earlier messages' texts and times are the sandbox's choice).
 * Its summary in the sandbox is then exactly the example's.
 */
export function exampleData(): ExampleData {
  const agentStageId = (serviceDescription.components.parameters["AgentStageIdPath"] as { example: string }).example;
  const triggers = example<ExternalEventTrigger[]>("ExternalEventTriggerArray");
  const exports = new Map([example<ConversationExport>("ConversationExportFull")].map((conversation) => [conversation.id, conversation]));
  const summaries = new Map<string, ConversationSummary>();
  for (const name of ["ConversationPageSingle", "ConversationPageFirst", "ConversationPageLast"]) {
    for (const summary of example<{ items: ConversationSummary[] }>(name).items) if (!summaries.has(summary.id)) summaries.set(summary.id, summary);
  }
  const bot = [...summaries.values()].flatMap((summary) => summary.members).find((member) => member.id === agentStageId && member.role === "Bot");
  const conversations = [...summaries.values()].map((summary) => ({
    agentStageId,
    startedOn: summary.startedOn,
    conversation: exports.get(summary.id) ?? exportOf(summary),
  }));
  return { bot: { agentStageId, name: bot?.name ?? "Example bot", triggers }, conversations };
}

/** An export whose summary is the given one (see `exampleData`). */
function exportOf(summary: ConversationSummary): ConversationExport {
  const members = summary.members.map(({ id, name, role }) => ({ id, name, role }));
  const botMember = members.find((member) => member.role === "Bot") ?? members[0]!;
  const userMember = members.find((member) => member !== botMember) ?? botMember;
  const inbound = summary.latestMessageDirection !== "Outbound";
  const startedMs = Date.parse(summary.startedOn);
  const lastMs = Date.parse(summary.latestMessageOn);
  const history: MessageActivity[] = Array.from({ length: summary.messagesCount }, (_, index) => {
    const last = index === summary.messagesCount - 1;
    // Messages alternate, ending with the sender the summary's direction names.
    const fromBot = (summary.messagesCount - 1 - index) % 2 === 0 ? !inbound : inbound;
    const at = last
      ? summary.latestMessageOn
      : isoLike(summary.latestMessageOn, startedMs + Math.round(((lastMs - startedMs) * (index + 1)) / summary.messagesCount / 2));
    return {
      id: `${summary.id.slice(0, 24)}${String(index + 1).padStart(12, "0")}`,
      type: "Message",
      timestamp: at,
      text: last ? summary.latestMessageText : `Message ${index + 1} of ${summary.messagesCount}.`,
      from: fromBot ? botMember : userMember,
      recipient: fromBot ? userMember : botMember,
      buttons: null,
      recognizedIntents: null,
      knowledgeBaseAnswers: null,
      attachments: null,
    };
  });
  return exportFromSummary(summary, members, history);
}

/** The instant `epochMs` written with the same UTC offset as `pattern` (an ISO 8601 date-time). */
function isoLike(pattern: string, epochMs: number): string {
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(pattern);
  return formatWithOffset(epochMs, offset === null ? 0 : (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])));
}
