import type { Faults } from "./faults.ts";
import type { Fixture } from "./fixture.ts";
import type { SandboxOptions } from "./options.ts";
import { problemResponse } from "./problem.ts";
import type { Checked } from "./request.ts";
import type { Storage } from "./storage.ts";

/** What every route of the sandbox works with. */
export interface SandboxContext {
  /** The database. */
  readonly storage: Storage;
  /** The options the sandbox runs with (switches included). */
  readonly options: SandboxOptions;
  /** The armed faults. */
  readonly faults: Faults;
  /** Replaces all data with generated data, or with a checked fixture. */
  replaceData(source: { seed: string; conversations: number } | { fixture: Fixture }): void;
}

/**
 * The error response for a request that failed its checks. Its `detail` names the first defect (where,
 * and what was expected), so a client that shows only `detail` still tells the caller what to fix;
 * `errors` lists every defect.
 */
export function refusal(context: SandboxContext, checked: Extract<Checked<unknown>, { ok: false }>): Response {
  const [first, ...rest] = checked.defects;
  const more = rest.length > 0 ? ` (and ${rest.length} more, in errors)` : "";
  const detail = first ? `${checked.detail.replace(/\.$/, "")}: ${first.path} ${first.message}${more}.` : checked.detail;
  return problemResponse(context.options.errorMediaType, checked.status, detail, checked.defects);
}

/** Bodies larger than this are refused with 413: the service states no limit, so this is the sandbox's own. */
export const maxBodyBytes = { operation: 1024 * 1024, fixture: 256 * 1024 * 1024 };
