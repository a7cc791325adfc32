import type { FiredEventsStore } from "../data/fired-events.ts";
import { maxFixtureBytes } from "../data/fixture.ts";
import type { SearchIndex } from "../engine/search-index.ts";
import type { Checked } from "../json.ts";
import type { SandboxOptions } from "../options.ts";
import type { Answer } from "./answer.ts";
import { problemAnswer } from "./problem.ts";
import type { SearchAnswers } from "./search-answers.ts";

/** What an operation of the service works with: the data in place, the options, and where fired events are kept. */
export interface OperationContext {
  /** The data in place now (a reset swaps in another search index once it is loaded). */
  index(): SearchIndex;
  /** The options the workspace runs with (switches included). */
  readonly options: SandboxOptions;
  /** The workspace's fired events. */
  readonly fired: FiredEventsStore;
  /** The workspace's last few search pages, each with the data, options and query it answers (`search.ts`). */
  readonly searchAnswers: SearchAnswers;
}

/**
 * The error response for a request that failed its checks. Its `detail` names the first defect (where,
 * and what was expected), so a client that shows only `detail` still tells the caller what to fix;
 * `errors` lists every defect.
 */
export function refusal(context: Pick<OperationContext, "options">, checked: Extract<Checked<unknown>, { ok: false }>): Answer {
  const [first, ...rest] = checked.defects;
  const more = rest.length > 0 ? ` (and ${rest.length} more, in errors)` : "";
  const detail = first ? `${checked.detail.replace(/\.$/, "")}: ${first.path}: ${first.message}${more}.` : checked.detail;
  return problemAnswer(context.options.errorMediaType, checked.status, detail, checked.defects);
}

/** Bodies larger than this are refused with 413: the service states no limit, so this is the sandbox's own. */
export const maxBodyBytes = { operation: 1024 * 1024, fixture: maxFixtureBytes };
