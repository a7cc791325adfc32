import type { ConversationPage } from "@bot-conversation/types";
import fc from "fast-check";
import { caseFor, type Exchange } from "../case.ts";
import { pageChecks } from "../checks/index.ts";
import { modelAgreement, modelWalkAgreement } from "../checks/model.ts";
import { pageOf } from "../checks/paging.ts";
import { failureText } from "../checks/types.ts";
import { operationOf } from "../description.ts";
import { modelledFilters, SearchModel } from "../model.ts";
import type { Session } from "../session.ts";

const operationId = "searchConversations";
const day = 86_400_000;
/** Generated searches per `--examples`: a search costs one request (a few when read whole), and the space is every filter and combination. */
const searchesPerExample = 5;
/** A generated search whose pages are at most this many is read whole (every page), and its pages compared as one set. */
const maxWalkedPages = 4;

/** A generated search: filters, a page size, a page (an offset from the first), and whether to read every page. */
interface ModelSearch {
  readonly query: Record<string, string>;
  readonly pageSize: number;
  readonly page: number;
  readonly walk: boolean;
}

/** An instant written with a random offset (Z, or whole and half hours east and west): the same instant however it is written. */
const written = (instant: number, offsetMinutes: number | null): string => {
  if (offsetMinutes === null) return new Date(instant).toISOString();
  const local = new Date(instant + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, "0");
  return `${local}${offsetMinutes < 0 ? "-" : "+"}${hours}:${String(Math.abs(offsetMinutes) % 60).padStart(2, "0")}`;
};

/**
 * Searches over the whole space the filters' types allow, valued from the model: every filter of the one table
 * and every combination of them; each equality filter at a value the data holds or one it does not (each status
 * the description lists); each date bound anywhere from a day before the first instant to a day after the last,
 * often near one (never exactly on one unless the team decided whether bounds include it), in any notation; a
 * page size from 1 to the default (or the accepted maximum), and a page from the first to one past the last.
 */
function modelSearches(session: Session, model: SearchModel, pageCap: number): fc.Arbitrary<ModelSearch> {
  const operation = operationOf(session.description, operationId);
  const values: Record<string, fc.Arbitrary<string>> = {};
  for (const filter of modelledFilters) {
    const parameter = operation.parameters.find((each) => each.name === filter.name && each.in === "query");
    if (!parameter) continue;
    if (filter.how === "equal") {
      // An enumeration's own values only (another value is an invalid search); any other string also at one the data lacks.
      const listed = Array.isArray(parameter.schema["enum"]) ? (parameter.schema["enum"] as string[]) : undefined;
      values[filter.name] = fc.constantFrom(...(listed ?? new Set([...model.valuesOf(filter.matches), "conformance-none"])));
      continue;
    }
    const instants = model.instantsOf(filter.matches);
    if (instants.length === 0) continue;
    const low = Math.min(...instants) - day;
    const high = Math.max(...instants) + day;
    const near = fc
      .tuple(
        fc.constantFrom(...instants),
        fc.integer({ min: -day, max: day }).filter((shift) => shift !== 0),
      )
      .map(([at, shift]) => at + shift);
    const anywhere = fc.integer({ min: low, max: high });
    const offset = fc.option(
      fc.integer({ min: -28, max: 28 }).map((half) => half * 30),
      { freq: 2 },
    );
    values[filter.name] = fc.tuple(fc.oneof(near, anywhere), offset).map(([instant, minutes]) => written(instant, minutes));
  }
  const names = Object.keys(values);
  return fc
    .record({
      chosen: fc.subarray(names),
      values: fc.record(values),
      pageSize: fc.integer({ min: 1, max: pageCap }),
      page: fc.nat({ max: 6 }),
      walk: fc.boolean(),
    })
    .map(({ chosen, values: drawn, pageSize, page, walk }) => ({
      query: Object.fromEntries(chosen.map((name) => [name, drawn[name]!])),
      pageSize,
      page,
      walk,
    }));
}

/**
 * `search_model`: the model of the server's own data (the unfiltered walk, `walkPages`) answers generated searches
 * over the whole space, and each answer is compared with the server's: every page by itself (its items, counts and
 * envelope), and a search of a few pages read whole as one set. With `--agent-stage-id` every search names the bot
 * the walk read; without it none does (a summary does not carry its bot).
 */
export async function checkSearchModel(session: Session): Promise<void> {
  const walked = session.knowledge.walk;
  if (!walked) return session.results.skip("search_model", "the walk of every page did not hold, so there is no model of the server's data to compare with");
  const model = SearchModel.of(
    walked.map((exchange) => pageOf(exchange) as ConversationPage),
    { dateRangeBounds: session.settings.decisions.dateRangeBounds },
  );
  if (model.summaries.size === 0) return session.results.skip("search_model", "the server holds no conversation to model");
  const pageCap = session.settings.decisions.maxPageSize ?? session.knowledge.defaultPageSize ?? 20;
  const operation = operationOf(session.description, operationId);
  const bot = session.settings.agentStageId ? { agentStageId: session.settings.agentStageId } : {};
  const check = modelAgreement(model);
  const read = async (query: Record<string, string>): Promise<{ exchange: Exchange; failed: string[] } | undefined> =>
    session.exchange(caseFor(operation, { query }), [...pageChecks, ["search_model", check]]);
  await session.explore(
    modelSearches(session, model, pageCap),
    async ({ query, pageSize, page, walk }) => {
      const base = session.knowledge.pageBase;
      const asked = { ...bot, ...query, pageSize: String(pageSize) };
      const answer = model.answer(query);
      const pages = "ids" in answer ? Math.ceil(answer.ids.size / pageSize) : 0;
      if (!walk || pages < 1 || pages > maxWalkedPages) {
        const one = await read({ ...asked, pageIndex: String(base + Math.min(page, pages)) });
        return (one?.failed ?? []).filter((name) => name === "search_model");
      }
      const all: Exchange[] = [];
      const failed = new Set<string>();
      // Every page the model's answer needs, and on while the server says more follow: with local times the model
      // may still weigh several zones, so its count is not yet the last word.
      let more = true;
      for (let index = 0; (index < pages || more) && index <= maxWalkedPages && session.canSend; index++) {
        const next = await read({ ...asked, pageIndex: String(base + index) });
        if (!next) return [...failed].filter((name) => name === "search_model") as "search_model"[];
        for (const name of next.failed) failed.add(name);
        all.push(next.exchange);
        more = pageOf(next.exchange)?.hasMore === true;
      }
      if (all.length >= pages) {
        const verdict = modelWalkAgreement(model, all);
        session.record("search_model", all.at(-1)!, verdict, all.slice(0, -1));
        if (failureText(verdict) !== undefined) failed.add("search_model");
      }
      return [...failed].filter((name) => name === "search_model") as "search_model"[];
    },
    session.settings.examples * searchesPerExample,
  );
}
