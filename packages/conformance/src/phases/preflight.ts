import { caseFor } from "../case.ts";
import { pageChecks } from "../checks/index.ts";
import { pageOf } from "../checks/paging.ts";
import { operationOf } from "../description.ts";
import { UsageError } from "../options.ts";
import type { Session } from "../session.ts";

/** How many pages are read looking for the conversation named on the command line. */
const maxPages = 20;

/** `--agent-stage-id` names a bot the server knows: its trigger list is not a 404 (else the checks that need it would be dropped). */
export async function confirmBot(session: Session): Promise<void> {
  const agentStageId = session.settings.agentStageId;
  if (!agentStageId) return;
  const answer = await session.exchange(caseFor(operationOf(session.description, "listExternalEventTriggers"), { path: { agentStageId } }));
  if (answer?.exchange.status === 404) {
    throw new UsageError(`--agent-stage-id ${JSON.stringify(agentStageId)}: the server knows no such bot (404 on its trigger list); name a bot it has`);
  }
}

/**
 * With firing allowed, the conversation named (`--conversation-id` or `--external-conversation-id`) is
 * among the bot's conversations: read up to 20 pages of the search. Absent from a complete walk is bad
 * usage; a longer walk than that leaves it unconfirmed (returned as a warning).
 */
export async function confirmConversation(session: Session): Promise<string | undefined> {
  const { allowFire, conversationId, externalConversationId, agentStageId } = session.settings;
  if (!allowFire) return undefined;
  const wanted = conversationId ?? externalConversationId!;
  const matches = (item: Record<string, unknown>): boolean => {
    if (conversationId) return item["id"] === conversationId;
    const session = (item["channelData"] as { platform?: { session?: { id?: unknown } } } | null | undefined)?.platform?.session?.id;
    return `${String(session)}|livechat` === externalConversationId;
  };
  if ([...session.knowledge.items.values()].some(matches)) return undefined;
  const operation = operationOf(session.description, "searchConversations");
  const filter: Record<string, string> = agentStageId ? { agentStageId } : {};
  let pageIndex: number | undefined;
  const seen = new Set<string>();
  for (let read = 0; read < maxPages; read++) {
    const answer = await session.exchange(
      caseFor(operation, { query: pageIndex === undefined ? filter : { ...filter, pageIndex: String(pageIndex) } }),
      pageChecks,
    );
    const page = answer && pageOf(answer.exchange);
    if (!page) return `could not confirm that the conversation ${JSON.stringify(wanted)} exists: the search did not answer with a page`;
    if ((page.items as unknown as Record<string, unknown>[]).some(matches)) return undefined;
    for (const item of page.items) seen.add(item.id);
    if ((!page.hasMore || page.items.length === 0) && seen.size < page.totalItemCount) {
      // The server's paging ended short of its own total (envelope_math and paging_walk report it): its bug, not bad usage.
      return `could not confirm that the conversation ${JSON.stringify(wanted)} exists: the server's paging ended after ${seen.size} of the ${page.totalItemCount} conversations it counts; the fire checks use it as given`;
    }
    if (!page.hasMore || page.items.length === 0) {
      const option = conversationId ? "--conversation-id" : "--external-conversation-id";
      throw new UsageError(
        `${option} ${JSON.stringify(wanted)}: no such conversation among the ${page.totalItemCount} conversations the search finds${agentStageId ? ` for the bot` : ""}; name one the server has`,
      );
    }
    pageIndex = page.pageIndex + 1;
  }
  return `could not confirm that the conversation ${JSON.stringify(wanted)} exists within ${maxPages} pages of the search; the fire checks use it as given`;
}
