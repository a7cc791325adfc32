import { type Case, caseFor, type Exchange } from "../case.ts";
import { rejectionOf } from "../checks/data.ts";
import { pageChecks, positiveDataAcceptance } from "../checks/index.ts";
import { pageOf, pagingWalk } from "../checks/paging.ts";
import { operationOf } from "../description.ts";
import { invalidQuery, searchQuery } from "../generate.ts";
import { nextPageQuery } from "../links.ts";
import type { Session } from "../session.ts";

const operationId = "searchConversations";

/** A search case with the configured token. */
const searchCase = (session: Session, query: Record<string, string>): Case => caseFor(operationOf(session.description, operationId), { query });

/** The first page, unfiltered but for the bot: learns the first `pageIndex` and sample values for the generators. */
export async function probeSearch(session: Session): Promise<Exchange | undefined> {
  const query = session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {};
  const answer = await session.exchange(searchCase(session, query));
  const page = answer && pageOf(answer.exchange);
  if (page) {
    session.knowledge.pageBase = page.pageIndex;
    session.knowledge.defaultPageSize = page.pageSize;
  }
  // Re-judge the probe's envelope now that the first page's index is known.
  if (answer) for (const [name, check] of pageChecks) session.record(name, answer.exchange, check(answer.exchange, session.context));
  return answer?.exchange;
}

/** Generated valid searches, weighted towards ones that return data: accepted, and every page keeps the envelope math and matches its filters. */
export async function exploreSearch(session: Session): Promise<void> {
  const operation = operationOf(session.description, operationId);
  await session.explore(searchQuery(operation, session.knowledge), async (query) => {
    const answer = await session.exchange(searchCase(session, query), [["positive_data_acceptance", positiveDataAcceptance], ...pageChecks]);
    return answer?.failed ?? [];
  });
}

/** Generated searches with one value the description rules out: refused with a 4xx. */
export async function exploreInvalidSearch(session: Session): Promise<void> {
  const invalid = invalidQuery(operationOf(session.description, operationId), session.knowledge);
  if (!invalid) return session.results.skip("negative_data_rejection", "no search parameter can be broken in a query string");
  await session.explore(invalid, async ({ query, parameter }) => {
    const answer = await session.exchange(searchCase(session, query), [["negative_data_rejection", rejectionOf(parameter, query[parameter])]]);
    return answer?.failed ?? [];
  });
}

/** How many pages a walk reads at most; the page size grows to fit (the walk asks for it, the server may cap it). */
const maxWalkPages = 50;

/**
 * Walks every page of the bot's conversations (or all conversations without `--agent-stage-id`),
 * following the description's `nextPage` link (`links.ts`: the filters and the reported `pageSize`,
 * `pageIndex + 1`) while `hasMore`: the walk yields `totalItemCount` distinct conversations
 * and ends after `totalPageCount` pages.
 */
export async function walkPages(session: Session): Promise<void> {
  const filter: Record<string, string> = session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {};
  const first = await session.exchange(searchCase(session, filter), pageChecks);
  const firstPage = first && pageOf(first.exchange);
  if (!first || !firstPage) return session.results.skip("paging_walk", "the first page of the walk was not a 200 page");
  const pageSize = Math.max(firstPage.pageSize, Math.ceil(firstPage.totalItemCount / maxWalkPages));
  let answer = await session.exchange(searchCase(session, { ...filter, pageSize: String(pageSize) }), pageChecks);
  const start = answer && pageOf(answer.exchange);
  if (!answer || !start) return session.results.skip("paging_walk", "the first page of the walk was not a 200 page");
  // Every page read: a failure of the walk is reproduced by all of them, in order.
  const walked: Exchange[] = [];
  for (;;) {
    const page = pageOf(answer.exchange);
    if (!page) return session.results.skip("paging_walk", `page ${walked.length + 1} of the walk was not a 200 page (status ${answer.exchange.status})`);
    walked.push(answer.exchange);
    // A walk that outlasts the page count the server announced will never end by itself.
    if (!page.hasMore || walked.length > start.totalPageCount) break;
    if (!session.canSend) return session.results.skip("paging_walk", "the request budget ran out mid-walk");
    // The next page as the description's nextPage link says: the filters and the reported pageSize carried over, pageIndex + 1.
    const next = await session.exchange(searchCase(session, nextPageQuery(session.description, answer.exchange.case, answer.exchange.json)), pageChecks);
    if (!next) return;
    answer = next;
  }
  session.record("paging_walk", walked.at(-1)!, pagingWalk(walked), walked.slice(0, -1));
}
