import type { FiredEventsStore } from "../data/fired-events.ts";
import type { Store } from "../engine/store.ts";
import type { Checked } from "../json.ts";
import type { DataSource } from "../model.ts";
import type { SandboxOptions } from "../options.ts";
import type { FaultStore } from "./faults.ts";
import type { RequestJournal } from "./journal.ts";
import { problemResponse } from "./problem.ts";

/** What every route of the sandbox works with. */
export interface SandboxContext {
  /** The data in place now (a reset swaps in another store once it is loaded). */
  store(): Store;
  /** The options the sandbox runs with (switches included). */
  readonly options: SandboxOptions;
  /** The armed faults. */
  readonly faults: FaultStore;
  /** The journal of accepted external events. */
  readonly fired: FiredEventsStore;
  /** The journal of requests received. */
  readonly requests: RequestJournal;
  /**
   * Loads new data and swaps it in, clearing both journals; requests meanwhile are answered from the
   * old data. Loads run one after another, in the order asked. Resolves to the new counts.
   */
  replaceData(source: DataSource): Promise<{ bots: number; conversations: number }>;
}

/**
 * The error response for a request that failed its checks. Its `detail` names the first defect (where,
 * and what was expected), so a client that shows only `detail` still tells the caller what to fix;
 * `errors` lists every defect.
 */
export function refusal(context: Pick<SandboxContext, "options">, checked: Extract<Checked<unknown>, { ok: false }>): Response {
  const [first, ...rest] = checked.defects;
  const more = rest.length > 0 ? ` (and ${rest.length} more, in errors)` : "";
  const detail = first ? `${checked.detail.replace(/\.$/, "")}: ${first.path} ${first.message}${more}.` : checked.detail;
  return problemResponse(context.options.errorMediaType, checked.status, detail, checked.defects);
}

/** The request line and headers Node's HTTP server reads at most (its default `maxHeaderSize`); beyond it, a 431. */
export const maxHeaderBytes = 16 * 1024;

/** Bodies larger than this are refused with 413: the service states no limit, so this is the sandbox's own. */
export const maxBodyBytes = { operation: 1024 * 1024, fixture: 256 * 1024 * 1024 };
