import { type Case, caseFor, type Exchange } from "../case.ts";
import { pageChecks, positiveDataAcceptance } from "../checks/index.ts";
import { pageOf, pagingWalk } from "../checks/paging.ts";
import { operationOf } from "../description.ts";
import { invalidQuery, searchQuery } from "../generate.ts";
import { nextPageQuery } from "../links.ts";
import { pageSizeRelation } from "../relations.ts";
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

/** Why no search feeds `negative_data_rejection`: the seed's words. */
export const searchStatusesNotShown =
  'searches are not judged: the seed says "Status codes of the search operation (1) other than success: not shown", so a server may refuse or ignore a value the description rules out (the invalid_search_values finding says which)';

/**
 * Sends a search with one value the description rules out (`parameter`) and keeps the status for the
 * `invalid_search_values` finding: refused or ignored, both fit the seed, which shows no search status but
 * success. Only the checks of every response judge it (no page check: an ignored value is answered as if unsent).
 */
export async function sendInvalidSearch(session: Session, query: Record<string, string>, parameter: string): Promise<Exchange | undefined> {
  const answer = await session.exchange(searchCase(session, query));
  if (answer) session.knowledge.invalidSearches.push({ parameter, status: answer.exchange.status });
  return answer?.exchange;
}

/** Generated searches with one value the description rules out: their answers reported, never failed (`sendInvalidSearch`). */
export async function exploreInvalidSearch(session: Session): Promise<void> {
  session.results.skip("negative_data_rejection", searchStatusesNotShown);
  const invalid = invalidQuery(operationOf(session.description, operationId), session.knowledge);
  if (!invalid) return;
  await session.explore(invalid, async ({ query, parameter }) => {
    await sendInvalidSearch(session, query, parameter);
    return [];
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
  const verdict = pagingWalk(walked);
  session.record("paging_walk", walked.at(-1)!, verdict, walked.slice(0, -1));
  // The walk's pages are the data the model of search_model reads, when they added up.
  if (verdict === undefined) {
    session.knowledge.walk = walked;
    await walkAtAnotherPageSize(session, walked);
  }
}

/** The second walk reads at most this many pages. */
const maxRelationPages = 60;

/**
 * The `walk_page_size` relation: the same search walked again at another page size (about half, never the same)
 * finds the same `totalItemCount` and the same set of conversations (the seed's totalItemCount does not depend
 * on the page size). Every page of the second walk counts as a transformed request.
 */
async function walkAtAnotherPageSize(session: Session, walked: readonly Exchange[]): Promise<void> {
  const first = pageOf(walked[0]!)!;
  const pageSize = first.pageSize > 1 ? Math.ceil(first.pageSize / 2) + (first.pageSize === 2 ? 0 : 1) : 2;
  if (pageSize === first.pageSize || Math.ceil(first.totalItemCount / pageSize) > maxRelationPages) return;
  const count = session.relationCount(pageSizeRelation);
  const base = session.knowledge.pageBase;
  const { pageSize: _size, pageIndex: _index, ...filters } = walked[0]!.case.query;
  const again: Exchange[] = [];
  let complete = false;
  for (let index = 0; index <= maxRelationPages && session.canSend; index++) {
    const answer = await session.exchange({
      ...searchCase(session, { ...filters, pageSize: String(pageSize), pageIndex: String(base + index) }),
      relation: pageSizeRelation.name,
    });
    if (!answer) return;
    count.transformed += 1;
    again.push(answer.exchange);
    const page = pageOf(answer.exchange);
    if (!page) return;
    if (!page.hasMore) {
      complete = true;
      break;
    }
  }
  // A second walk cut short (the request budget) compares nothing.
  if (!complete) return;
  const ids = (pages: readonly Exchange[]): string[] => pages.flatMap((exchange) => pageOf(exchange)?.items.map((item) => item.id) ?? []).sort();
  const total = pageOf(again[0]!)?.totalItemCount;
  const problems = [
    ...(total === first.totalItemCount ? [] : [`totalItemCount ${first.totalItemCount} at pageSize ${first.pageSize}, ${total} at pageSize ${pageSize}`]),
    ...(JSON.stringify(ids(again)) === JSON.stringify(ids(walked))
      ? []
      : [`the pages at pageSize ${pageSize} hold another set of conversations than at ${first.pageSize}`]),
  ];
  session.recordRelation(pageSizeRelation, again.at(-1)!, problems.length === 0 ? undefined : { failure: problems.join("; ") }, [
    ...walked,
    ...again.slice(0, -1),
  ]);
}
