/** A workspace's last few search pages, each with what it was made from (`search.ts` answers a repeated search from here). */
import type { SearchIndex } from "../engine/search-index.ts";
import type { SandboxOptions } from "../options.ts";
import type { Answer } from "./answer.ts";

/** How many pages a workspace keeps (`SearchAnswers`): the last few searches asked (our choice). */
export const keptSearchAnswers = 8;

/**
 * The largest page kept, in bytes (our choice): a page of the usual sizes is a few tens of kB, and a page body shares
 * its 256 KiB slab with others (`engine/summary.ts`), so a workspace's pages hold at most about 2 MiB; a larger page
 * (a client asking thousands of conversations at once) is answered, not kept.
 */
export const keptPageBytes = 256 * 1024;

/**
 * A workspace's last few search pages, each kept with what it was made from: the data (the search index in place,
 * read-only once loaded: a reset or a load swaps in another), the options (switches included: a workspace opened
 * with other switches has other options) and the request target (path and query as sent). A page is answered again
 * only for the same three, so nothing that could change its answer is ever served from here: fires, faults and
 * the journal change no page, and a latency, a fault or a recording answers before the search is asked.
 */
export class SearchAnswers {
  readonly #kept: { index: SearchIndex; options: SandboxOptions; target: string; answer: Answer }[] = [];
  /** Where the next page kept goes once every place is taken: the oldest kept. */
  #next = 0;

  /** The page kept for this data, these options and this target, or `undefined`. */
  get(index: SearchIndex, options: SandboxOptions, target: string): Answer | undefined {
    for (const kept of this.#kept) if (kept.target === target && kept.index === index && kept.options === options) return kept.answer;
    return undefined;
  }

  /** Keeps a page (of at most `keptPageBytes`), in place of the oldest once `keptSearchAnswers` are kept. */
  set(index: SearchIndex, options: SandboxOptions, target: string, answer: Answer): void {
    const { body } = answer;
    if (body !== null && (typeof body === "string" ? body.length * 3 : body.byteLength) > keptPageBytes) return;
    const kept = { index, options, target, answer };
    if (this.#kept.length < keptSearchAnswers) this.#kept.push(kept);
    else {
      this.#kept[this.#next] = kept;
      this.#next = (this.#next + 1) % keptSearchAnswers;
    }
  }

  /** Forgets every page (the data was replaced: their index is let go). */
  clear(): void {
    this.#kept.length = 0;
    this.#next = 0;
  }
}
