import { consistencyRelations, searchAgreesWithExport } from "../consistency.ts";
import { acrossKinds } from "../kinds.ts";
import type { Session } from "../session.ts";

/** How many conversations are fetched through the export route at most. */
const exportsChecked = 24;

/**
 * The conversation export, where a server offers a route for it (`--export-path`, e.g. the sandbox's
 * `/_sandbox/conversations/{conversationId}/export`): each body is valid against the closed export model.
 * The service names no operation for the export, so nothing is fetched without the option. Each export is also
 * compared with the summary the search showed of it (`search_as_export`, `operation_consistency`).
 */
export async function checkExports(session: Session): Promise<void> {
  const template = session.settings.exportPath;
  if (!template) return;
  // The conversations whose summaries the run holds (the known bot's), one of each kind first.
  const ids = acrossKinds(session.knowledge.items, exportsChecked);
  for (const id of ids) {
    const answer = await session.exchange({
      operationId: "export",
      method: "GET",
      path: template.replace("{conversationId}", encodeURIComponent(id)),
      query: {},
      authentication: "token",
    });
    // search_as_export: the summary the search showed against the export (one of the relations across operations).
    const summary = session.knowledge.items.get(id);
    if (answer?.exchange.status !== 200 || !answer.exchange.isJson || !summary) continue;
    const relation = consistencyRelations.searchAsExport;
    session.relationCount(relation).transformed += 1;
    const source = session.knowledge.itemSources.get(id);
    session.recordRelation(relation, answer.exchange, searchAgreesWithExport(summary, answer.exchange.json, session.description), source ? [source] : []);
  }
}
