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

/** A filter of a date range (`…From`, `…To`), which the model matches by instants. */
type DateFilter = Exclude<ModelledFilter, { how: "equal" }>;

/** The filters the model matches on the summary, from the one table. */
export const modelledFilters: readonly ModelledFilter[] = searchFilters.filter((filter): filter is ModelledFilter => filter.matches !== "bot");

/** What the model says of a search: the conversations it finds, or why it cannot say. */
export type ModelAnswer = { readonly ids: ReadonlySet<string> } | { readonly notModelled: string };

/** How the model reads the points the seed leaves open. */
export interface ModelReadings {
  /** Whether a date bound includes its own instant, when the team's config decides it; otherwise a bound at an item's instant is not modelled. */
  readonly dateRangeBounds?: "inclusive" | "exclusive" | undefined;
}

/** A date-time written without an offset (ISO 8601's local time): the seed states an offset for `startedOn` only. */
const localDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?$/;

/** Every offset (minutes east of UTC) a server may mean by its date-times without one: each quarter hour from -14 h to +14 h, UTC first and then outwards. */
const everyOffset: readonly number[] = Array.from({ length: 113 }, (_, index) => (index % 2 === 0 ? 1 : -1) * Math.ceil(index / 2) * 15);

/** The instant of a local time (no offset) in the given zone; NaN for any other value. */
const localInstant = (value: unknown, zone: number): number =>
  typeof value === "string" && localDateTime.test(value) ? Date.parse(`${value.replace(",", ".")}Z`) - zone * 60_000 : NaN;

/** The server's conversations, read once, and how a search finds them. */
export class SearchModel {
  /** Each conversation's summary as the walk read it, by id. */
  readonly summaries: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly #readings: ModelReadings;
  /** Fields a date filter matches whose values, for some conversation, are local times (no offset). */
  readonly #localFields: ReadonlySet<string>;
  /**
   * The zones still possible for those local times: which zone a server means is its own (ISO 8601 leaves a local
   * time's zone to the parties), so the model keeps every zone its answers agree with, one zone for the whole run.
   */
  #zones: readonly number[] = everyOffset;
  /** Each conversation's id and summary, in the walk's order: the order of every list of instants below. */
  readonly #entries: readonly (readonly [string, Readonly<Record<string, unknown>>])[];
  /**
   * The instants of a field over every conversation (`#entries`' order), by field, and by zone for a field holding
   * local times: each date parsed once for the run, not again for every search the model answers (a run judges
   * hundreds of searches, each against every conversation).
   */
  readonly #instants = new Map<string, Float64Array>();

  private constructor(summaries: Map<string, Record<string, unknown>>, readings: ModelReadings) {
    this.summaries = summaries;
    this.#entries = [...summaries];
    this.#readings = readings;
    this.#localFields = new Set(
      modelledFilters
        .filter((filter) => filter.how !== "equal")
        .map((filter) => filter.matches)
        .filter((field) =>
          this.#offsetInstants(field).some((instant, index) => Number.isNaN(instant) && localDateTime.test(String(this.#entries[index]![1][field]))),
        ),
    );
  }

  /** The zones (minutes east of UTC) the server's local times may still be in; every one until an answer narrows them. */
  get localZones(): readonly number[] {
    return this.#localFields.size > 0 ? this.#zones : [];
  }

  /**
   * Judges a search by the model's answer, under each zone its local times may still be in when the search filters
   * on such a field: the zones under which the verdict holds are kept for the rest of the run, and the verdict is
   * theirs (a verdict that could not be reached keeps its zone); when it holds under none, the verdict under the first zone still possible (the zones stay as they were).
   */
  judged<Verdict>(query: Readonly<Record<string, string>>, judge: (answer: ModelAnswer) => Verdict, holds: (verdict: Verdict) => boolean): Verdict {
    const local = modelledFilters.some((filter) => query[filter.name] !== undefined && this.#localFields.has(filter.matches));
    if (!local) return judge(this.answer(query));
    const verdicts = this.#zones.map((zone) => [zone, judge(this.#answerIn(query, zone))] as const);
    const holding = verdicts.filter(([, verdict]) => holds(verdict));
    if (holding.length === 0) return verdicts[0]![1];
    this.#zones = holding.map(([zone]) => zone);
    return holding[0]![1];
  }

  /** The model of the conversations on the pages of one walk. */
  static of(pages: readonly ConversationPage[], readings: ModelReadings = {}): SearchModel {
    const summaries = new Map<string, Record<string, unknown>>();
    for (const item of pages.flatMap((page) => page.items)) summaries.set(item.id, item as unknown as Record<string, unknown>);
    return new SearchModel(summaries, readings);
  }

  /** The conversations a search with `query` finds (its paging parameters and the bot filter aside), or why the model cannot say. */
  answer(query: Readonly<Record<string, string>>): ModelAnswer {
    return this.#answerIn(query, this.#zones[0] ?? 0);
  }

  #answerIn(query: Readonly<Record<string, string>>, zone: number): ModelAnswer {
    const sent = modelledFilters.filter((filter) => query[filter.name] !== undefined);
    // A date filter's bound, and the instants of its field, read once for the search.
    const dates = sent.map((filter) =>
      filter.how === "equal" ? undefined : { filter, bound: parseDateTime(query[filter.name]), instants: this.#instantsIn(filter.matches, zone) },
    );
    const ids = new Set<string>();
    for (let index = 0; index < this.#entries.length; index++) {
      const [id, summary] = this.#entries[index]!;
      let found = true;
      for (let at = 0; at < sent.length; at++) {
        const filter = sent[at]!;
        const date = dates[at];
        const own = summary[filter.matches];
        const verdict =
          date === undefined ? own === query[filter.name] : this.#dateMatches(date.filter, own, date.instants[index]!, query[filter.name]!, date.bound);
        if (typeof verdict === "string") return { notModelled: `conversation ${JSON.stringify(id)}: ${verdict}` };
        found &&= verdict;
      }
      if (found) ids.add(id);
    }
    return { ids };
  }

  /** Whether a summary's date (`own`, its `instant`) is inside a date filter's `bound` (`sent`): true, false, or why it cannot be said. */
  #dateMatches(filter: DateFilter, own: unknown, instant: number, sent: string, bound: number): boolean | string {
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

  /** The instants a field's values name by their offsets (`parseDateTime`), over every conversation in `#entries`' order; NaN where one names none. */
  #offsetInstants(field: string): Float64Array {
    let instants = this.#instants.get(field);
    if (instants === undefined) {
      instants = Float64Array.from(this.#entries, ([, summary]) => parseDateTime(summary[field]));
      this.#instants.set(field, instants);
    }
    return instants;
  }

  /** The instants of a field over every conversation in `#entries`' order: by their offsets, and a local time's in `zone` (NaN where a value names none). */
  #instantsIn(field: string, zone: number): Float64Array {
    const byOffset = this.#offsetInstants(field);
    if (!this.#localFields.has(field)) return byOffset;
    const key = `${field} ${zone}`;
    let instants = this.#instants.get(key);
    if (instants === undefined) {
      instants = byOffset.map((instant, index) => (Number.isNaN(instant) ? localInstant(this.#entries[index]![1][field], zone) : instant));
      this.#instants.set(key, instants);
    }
    return instants;
  }

  /** The instants of a field over every conversation, those that name one. */
  instantsOf(field: string): number[] {
    return [...this.#instantsIn(field, this.#zones[0] ?? 0)].filter((instant) => !Number.isNaN(instant));
  }

  /** The values of a field over every conversation, those that are strings, each once. */
  valuesOf(field: string): string[] {
    return [...new Set([...this.summaries.values()].map((summary) => summary[field]).filter((value): value is string => typeof value === "string"))];
  }
}

/** Names of the filters the model matches. */
export const modelledFilterNames: readonly SearchFilterName[] = modelledFilters.map((filter) => filter.name);
