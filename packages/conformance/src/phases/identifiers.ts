import { type Case, caseFor, type Exchange } from "../case.ts";
import { botIdNearMissesFamily, notFound } from "../checks/fire.ts";
import { identifierEncodingsFamily, sameAsIdentifier } from "../checks/identifiers.ts";
import { pageChecks } from "../checks/index.ts";
import { botFilterNearMissesFamily, foundAnotherBot, nearMissOfBot, walkedIds } from "../checks/oracles.ts";
import { pageOf } from "../checks/paging.ts";
import { notJudged } from "../checks/types.ts";
import { operationOf } from "../description.ts";
import { nearMissesOfIdentifier, pathNearMissesOfIdentifier, percentEncoded, recased } from "../identifiers.ts";
import type { Session } from "../session.ts";

/** A trigger-list case whose path segment is `segment` as it is (already encoded, or raw on purpose). */
function triggerListCase(session: Session, segment: string): Case {
  const operation = operationOf(session.description, "listExternalEventTriggers");
  return { ...caseFor(operation, { path: { agentStageId: "x" } }), path: operation.path.replace("{agentStageId}", segment) };
}

/** What a search answered, for comparing two: its total. */
const totalOf = (json: unknown): unknown => (json as { totalItemCount?: unknown } | null)?.totalItemCount;

/** What another letter case of the bot's id got: the trigger list's status and the search's total (or status). */
export interface LetterCaseAnswers {
  readonly triggerList?: number;
  readonly search?: number | string;
}

/**
 * The known bot's id on the trigger list: each near miss (`bot-id-near-misses`: cut, a character more,
 * a reserved character appended) is 404; the id with a character percent-encoded (`identifier-encodings`)
 * lists the same triggers; and on the search, the id percent-encoded finds the same total while each
 * near miss finds nothing (`bot-filter-near-misses`). Another letter case is sent to both and returned,
 * never judged (the seed is silent on it).
 */
export async function checkBotIdentifiers(session: Session, listed: Exchange | undefined): Promise<LetterCaseAnswers> {
  const bot = session.settings.agentStageId;
  if (!bot) {
    for (const name of ["identifier_encoding", "bot_filter_match"] as const) session.results.skip(name, "near misses of a known bot need --agent-stage-id");
    return {};
  }
  const send = async (request: Case, checks: Parameters<Session["exchange"]>[1] = []): Promise<Exchange | undefined> =>
    session.canSend ? (await session.exchange(request, checks))?.exchange : undefined;
  // The search first: a near miss whose search finds conversations none of the known bot's is another bot the server
  // has (a conversation is with one bot), so its trigger list is not expected to be a 404.
  const search = operationOf(session.description, "searchConversations");
  const mine = walkedIds(session.knowledge.walk);
  const otherBots = new Set<string>();
  for (const miss of nearMissesOfIdentifier(bot)) {
    const answer = await send({ ...caseFor(search, { query: { agentStageId: miss.value } }), family: botFilterNearMissesFamily }, [
      ["bot_filter_match", nearMissOfBot(`agentStageId=${miss.value}, the bot ${bot} ${miss.what}`, mine)],
      ...pageChecks,
    ]);
    if (answer && foundAnotherBot(answer, mine)) otherBots.add(miss.value);
  }
  for (const miss of pathNearMissesOfIdentifier(bot)) {
    const another = otherBots.has(decodeURIComponent(miss.value));
    await send({ ...triggerListCase(session, miss.value), family: botIdNearMissesFamily }, [
      [
        "unknown_bot_not_found",
        another
          ? () => notJudged(`agentStageId ${JSON.stringify(bot)} ${miss.what} is another bot the server has (its search found conversations of its own)`)
          : notFound(`agentStageId ${JSON.stringify(bot)} ${miss.what}`),
      ],
    ]);
  }
  const encoded = percentEncoded(bot);
  if (encoded)
    await send({ ...triggerListCase(session, encoded), family: identifierEncodingsFamily }, [
      ["identifier_encoding", sameAsIdentifier(`the trigger list of ${encoded} (the bot's id, a character percent-encoded)`, listed, (json) => json)],
    ]);
  if (encoded) {
    const plain = await send(caseFor(search, { query: { agentStageId: bot } }), pageChecks);
    await send({ ...caseFor(search), rawQuery: { agentStageId: encoded }, family: identifierEncodingsFamily }, [
      ["identifier_encoding", sameAsIdentifier(`a search for agentStageId=${encoded} (the bot's id, a character percent-encoded)`, plain, totalOf)],
    ]);
  }
  const other = recased(bot);
  if (!other) return {};
  const triggerList = await send(triggerListCase(session, encodeURIComponent(other)));
  const searched = await send(caseFor(search, { query: { agentStageId: other } }));
  const page = searched && pageOf(searched);
  return {
    ...(triggerList ? { triggerList: triggerList.status } : {}),
    ...(searched ? { search: page ? `${page.totalItemCount} conversations` : searched.status } : {}),
  };
}
