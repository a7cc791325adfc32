/**
 * A model of the server's own data, the oracle of `search_model`: the conversations one walk of the search read
 * (every page, in order, the walk having held), matched by the search's one table of filters (`searchFilters` of
 * `@bot-conversation/openapi`, which the sandbox's engine builds its filters from too). It answers which
 * conversations a search finds, so any generated search can be compared with the server's answer: a filtering,
 * paging or counting bug is found without a probe written for it. The order of items is not modelled: the seed
 * leaves it open.
 */
import { parseDateTime } from "@bot-conversation/client";
import { boundSide, type SearchFilterName, searchFilters } from "@bot-conversation/openapi";
import type { ConversationPage } from "@bot-conversation/types";

/** A filter of the table the model can match: every one but the bot's, which a summary does not carry. */
type ModelledFilter = Exclude<(typeof searchFilters)[number], { matches: "bot" }>;

/** The filters the model matches on the summary, from the one table. */
export const modelledFilters: readonly ModelledFilter[] = searchFilters.filter((filter): filter is ModelledFilter => filter.matches !== "bot");

/** What the model says of a search: the conversations it finds, or why it cannot say. */
export type ModelAnswer = { readonly ids: ReadonlySet<string> } | { readonly notModelled: string };

/** How the model reads the points the seed leaves open. */
export interface ModelReadings {
  /** Whether a date bound includes its own instant, when the team's config decides it; otherwise a bound at an item's instant is not modelled. */
  readonly dateRangeBounds?: "inclusive" | "exclusive" | undefined;
}

/** The server's conversations, read once, and how a search finds them. */
export class SearchModel {
  /** Each conversation's summary as the walk read it, by id. */
  readonly summaries: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly #readings: ModelReadings;

  private constructor(summaries: Map<string, Record<string, unknown>>, readings: ModelReadings) {
    this.summaries = summaries;
    this.#readings = readings;
  }

  /** The model of the conversations on the pages of one walk. */
  static of(pages: readonly ConversationPage[], readings: ModelReadings = {}): SearchModel {
    const summaries = new Map<string, Record<string, unknown>>();
    for (const item of pages.flatMap((page) => page.items)) summaries.set(item.id, item as unknown as Record<string, unknown>);
    return new SearchModel(summaries, readings);
  }

  /** The conversations a search with `query` finds (its paging parameters and the bot filter aside), or why the model cannot say. */
  answer(query: Readonly<Record<string, string>>): ModelAnswer {
    const sent = modelledFilters.filter((filter) => query[filter.name] !== undefined);
    const ids = new Set<string>();
    for (const [id, summary] of this.summaries) {
      let found = true;
      for (const filter of sent) {
        const verdict = this.#matches(filter, summary[filter.matches], query[filter.name]!);
        if (typeof verdict === "string") return { notModelled: `conversation ${JSON.stringify(id)}: ${verdict}` };
        found &&= verdict;
      }
      if (found) ids.add(id);
    }
    return { ids };
  }

  /** Whether a summary's value matches one filter's value: true, false, or why it cannot be said. */
  #matches(filter: ModelledFilter, own: unknown, sent: string): boolean | string {
    if (filter.how === "equal") return own === sent;
    const instant = parseDateTime(own);
    const bound = parseDateTime(sent);
    if (Number.isNaN(instant)) return `its ${filter.matches} ${JSON.stringify(own)} names no instant (no offset), so ${filter.name} cannot be modelled`;
    if (Number.isNaN(bound)) return `${filter.name} ${JSON.stringify(sent)} names no instant`;
    const side = boundSide(filter.how, instant, bound);
    if (side === "at") {
      const { dateRangeBounds } = this.#readings;
      if (dateRangeBounds === undefined)
        return `its ${filter.matches} is the bound ${sent} itself, and whether a bound includes its own instant is an open point`;
      return dateRangeBounds === "inclusive";
    }
    return side === "inside";
  }

  /** The instants of a field over every conversation, those that name one. */
  instantsOf(field: string): number[] {
    return [...this.summaries.values()].map((summary) => parseDateTime(summary[field])).filter((instant) => !Number.isNaN(instant));
  }

  /** The values of a field over every conversation, those that are strings, each once. */
  valuesOf(field: string): string[] {
    return [...new Set([...this.summaries.values()].map((summary) => summary[field]).filter((value): value is string => typeof value === "string"))];
  }
}

/** Names of the filters the model matches. */
export const modelledFilterNames: readonly SearchFilterName[] = modelledFilters.map((filter) => filter.name);
