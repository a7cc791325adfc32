import { parseDateTime } from "@bot-conversation/client";
import { dateFilters, searchPeriods } from "@bot-conversation/openapi";
import type { Case } from "../case.ts";
import { caseFor } from "../case.ts";
import { pastMaximum } from "../checks/data.ts";
import { hasOffset } from "../checks/filters.ts";
import { pageChecks, positiveDataAcceptance } from "../checks/index.ts";
import { filterInclusion, undecidedBounds } from "../checks/oracles.ts";
import { pageOf } from "../checks/paging.ts";
import type { ExchangeCheck } from "../checks/types.ts";
import { operationOf } from "../description.ts";
import { acrossKinds } from "../kinds.ts";
import type { Session } from "../session.ts";
import { sendInvalidSearch } from "./search.ts";

const operationId = "searchConversations";
const millisecond = 1;
/** How many conversations a period is searched around, per period: one of each kind first. */
const periodsAroundItems = 16;

/**
 * An instant written in another notation than the item's own: at +03:00 when the item is written in
 * UTC, in UTC otherwise, always with milliseconds. The same instant must match the same conversations
 * however it is written (ISO 8601); a server comparing dates as text does not.
 */
export function otherNotation(instant: number, like: string): string {
  const utc = /(Z|[+-]00:?00)$/i.test(like);
  if (!utc) return new Date(instant).toISOString();
  const shifted = new Date(instant + 3 * 3_600_000).toISOString();
  return `${shifted.slice(0, -1)}+03:00`;
}

/** The bot filter of the run's searches, when `--agent-stage-id` is given. */
const botOf = (session: Session): Record<string, string> => (session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {});

/** Sends one search with the bot filter (when given), the response checks, the page checks and `more`. */
async function search(session: Session, query: Record<string, string>, more: ReadonlyArray<readonly [Parameters<Session["record"]>[0], ExchangeCheck]> = []) {
  if (!session.canSend) return undefined;
  const request: Case = caseFor(operationOf(session.description, operationId), { query: { ...botOf(session), ...query } });
  return (await session.exchange(request, [...more, ...pageChecks]))?.exchange;
}

const valid = [["positive_data_acceptance", positiveDataAcceptance]] as const;

/**
 * The edge phase, before random generation: `pageSize` at its documented minimum and one below, at
 * the team's maximum (or, with none, a page that holds every conversation) and one past it; the
 * first page, the last page and one past the end; each enumeration value alone; each channel seen
 * alone; each date bound alone at an item's exact instant and 1 ms either side, in another notation.
 */
export async function exploreEdges(session: Session): Promise<void> {
  const first = await search(session, {}, valid);
  const page = first && pageOf(first);
  if (!page) return session.results.skip("filter_inclusion", "the first page of the edge phase was not a 200 page");
  await pageSizeEdges(session, page.pageSize, page.totalItemCount);
  await pageIndexEdges(session, page.totalPageCount);
  await enumerationEdges(session);
  await dateEdges(session);
}

async function pageSizeEdges(session: Session, defaultSize: number, total: number): Promise<void> {
  const schema = operationOf(session.description, operationId).parameters.find((parameter) => parameter.name === "pageSize")?.schema ?? {};
  const minimum = typeof schema["minimum"] === "number" ? schema["minimum"] : 1;
  await search(session, { pageSize: String(minimum) }, valid);
  if (session.canSend) await sendInvalidSearch(session, { ...botOf(session), pageSize: String(minimum - 1) }, "pageSize");
  const decided = session.settings.decisions.maxPageSize ?? (typeof schema["maximum"] === "number" ? schema["maximum"] : undefined);
  if (decided !== undefined) {
    await search(session, { pageSize: String(decided) }, valid);
    await search(session, { pageSize: String(decided + 1) }, [["negative_data_rejection", pastMaximum(decided)]]);
    return;
  }
  // No maximum is documented: one page holding every conversation, and one item more, are valid requests.
  if (total > defaultSize && total < 1000) {
    await search(session, { pageSize: String(total) }, valid);
    await search(session, { pageSize: String(total + 1) }, valid);
  }
}

async function pageIndexEdges(session: Session, totalPageCount: number): Promise<void> {
  const base = session.knowledge.pageBase;
  await search(session, { pageIndex: String(base) }, valid);
  if (totalPageCount > 1) await search(session, { pageIndex: String(base + totalPageCount - 1) }, valid);
  await search(session, { pageIndex: String(base + totalPageCount) }, valid);
  // Below the first page: -1 is ruled out by `minimum: 0`; 0 on a server counting from 1 is an open point, not sent.
  if (base === 0 && session.canSend) await sendInvalidSearch(session, { ...botOf(session), pageIndex: "-1" }, "pageIndex");
}

async function enumerationEdges(session: Session): Promise<void> {
  for (const parameter of operationOf(session.description, operationId).parameters) {
    if (parameter.in !== "query" || !Array.isArray(parameter.schema["enum"])) continue;
    for (const value of parameter.schema["enum"] as string[]) await search(session, { [parameter.name]: value }, valid);
  }
  for (const channelId of session.knowledge.channelIds.slice(0, 8)) await search(session, { channelId }, valid);
}

async function dateEdges(session: Session): Promise<void> {
  const items = [...session.knowledge.items.values()];
  if (items.length === 0) return session.results.skip("filter_inclusion", "no search returned a conversation to look for by its dates");
  // Each date filter of the search filters' one table: the summary field it bounds (`matches`) and its side of the period (`how`).
  for (const { name: parameter, matches: field, how: side } of dateFilters) {
    const dated = items
      .filter((item) => hasOffset(item[field]))
      .sort((left, right) => parseDateTime(left[field] as string) - parseDateTime(right[field] as string));
    if (dated.length === 0) continue;
    const earliest = dated[0]!;
    const latest = dated.at(-1)!;
    const middle = dated[Math.floor(dated.length / 2)]!;
    const at = (item: Record<string, unknown>, shift: number): string => otherNotation(parseDateTime(item[field] as string) + shift, item[field] as string);
    // Past every conversation seen: a bound the server ignores returns conversations on the wrong side of it.
    await search(session, { [parameter]: side === "from" ? at(latest, millisecond) : at(earliest, -millisecond) }, valid);
    for (const shift of [-millisecond, millisecond]) await search(session, { [parameter]: at(middle, shift) }, valid);
  }
  for (const { field, from, to } of searchPeriods) {
    const dated = items.filter((item) => hasOffset(item[field]));
    const item = dated[Math.floor(dated.length / 2)];
    if (!item) continue;
    // A period of ±1 ms around the instant of a conversation of each kind (channel and status) finds it: a date the
    // summary shows apart from the one the filter reads, for one kind of conversation only, is met too.
    const around = acrossKinds(
      dated.map((each) => [each["id"] as string, each] as const),
      periodsAroundItems,
    );
    for (const id of around) {
      const each = session.knowledge.items.get(id)!;
      const own = parseDateTime(each[field] as string);
      await expectFound(session, each, field, {
        [from]: otherNotation(own - millisecond, each[field] as string),
        [to]: otherNotation(own + millisecond, each[field] as string),
      });
    }
    const written = item[field] as string;
    const instant = parseDateTime(written);
    const bounds = session.settings.decisions.dateRangeBounds;
    const exact = { [from]: otherNotation(instant, written), [to]: otherNotation(instant, written) };
    if (bounds === "inclusive") await expectFound(session, item, field, exact);
    else {
      // filter_match holds an exclusive server to leaving the item out; with no decision both answers hold.
      const answer = await search(session, exact);
      if (answer && bounds === undefined) {
        session.record("filter_inclusion", answer, undecidedBounds(answer, session.context));
      }
    }
  }
}

/** A period around an item's instant finds that item (`filter_inclusion`); the item's first search answer reproduces a failure too. */
async function expectFound(session: Session, item: Record<string, unknown>, field: string, query: Record<string, string>): Promise<void> {
  const answer = await search(session, query, valid);
  if (!answer) return;
  const source = session.knowledge.itemSources.get(item["id"] as string);
  session.record("filter_inclusion", answer, filterInclusion(item, field, query)(answer, session.context), source ? [source] : []);
}
