/**
 * The recording's report: every exchange counted per operation and status, with how many were
 * invalid, and every problem and finding counted by operation, status, pointer and message.
 * `report.json` has exactly the shape `{ operations, problems, findings, notRecorded }`; `report.md` says the same for a
 * person (and serves as a GitHub job summary). Stable ordering, no clock: the same traffic gives the
 * same bytes.
 */
import { redactText, sanitizeText } from "@bot-conversation/client/text";
import type { Observation } from "./validation.js";

/** Counts of one operation and status. */
export interface StatusCounts {
  /** Exchanges answered with this status. */
  exchanges: number;
  /** How many of them showed at least one problem (findings do not count). */
  invalid: number;
}

/** One problem or finding and the number of exchanges that showed it. */
export interface ReportProblem {
  /** operationId, or `undocumented` for a request outside the description. */
  readonly operationId: string;
  /** The upstream's status. */
  readonly status: number;
  /** JSON pointer into the request or response (array indexes as `*`). */
  readonly pointer: string;
  /** What was expected and what came back. */
  readonly message: string;
  /** Exchanges that showed it. */
  count: number;
}

/** `report.json`. */
export interface RecordReport {
  /** operationId → status → counts. */
  readonly operations: Record<string, Record<string, StatusCounts>>;
  /** Problems (what makes an exchange invalid), ordered by operation, status, pointer and message. */
  readonly problems: ReportProblem[];
  /** Findings (points the service leaves open, what the description does not list, what could not be judged), in the same order: never what makes an exchange invalid. */
  readonly findings: ReportProblem[];
  /** What the recording lacks to replay everything it names. */
  readonly notRecorded: {
    /** Bots (agentStageId) of the fixture whose trigger list was never recorded: they replay with no trigger. */
    readonly triggerLists: readonly string[];
  };
}

/** The operation name of an exchange outside the description. */
export const undocumentedOperation = "undocumented";

/** Accumulates exchanges into a report. */
export class ReportBuilder {
  readonly #operations = new Map<string, Map<number, StatusCounts>>();
  readonly #problems = new Map<string, ReportProblem & { readonly finding: boolean }>();

  /** Counts one exchange and what it showed; `secrets` are redacted from every message. */
  add(operationId: string, status: number, observations: readonly Observation[], secrets: Iterable<string>): void {
    const statuses = this.#operations.get(operationId) ?? new Map<number, StatusCounts>();
    this.#operations.set(operationId, statuses);
    const counts = statuses.get(status) ?? { exchanges: 0, invalid: 0 };
    statuses.set(status, counts);
    counts.exchanges += 1;
    if (observations.some((observation) => !observation.finding)) counts.invalid += 1;
    const tokens = [...secrets];
    const once = new Set<string>();
    for (const observation of observations) {
      const message = redactText(observation.message, tokens);
      const pointer = redactText(observation.pointer, tokens);
      const key = JSON.stringify([operationId, status, pointer, message, observation.finding]);
      if (once.has(key)) continue;
      once.add(key);
      const known = this.#problems.get(key);
      if (known) known.count += 1;
      else this.#problems.set(key, { operationId, status, pointer, message, count: 1, finding: observation.finding });
    }
  }

  /** The report, in a stable order; `notRecorded` as the entities tell it. */
  report(notRecorded: RecordReport["notRecorded"] = { triggerLists: [] }): RecordReport {
    const operations: RecordReport["operations"] = {};
    for (const operationId of [...this.#operations.keys()].sort()) {
      const statuses = this.#operations.get(operationId)!;
      operations[operationId] = Object.fromEntries([...statuses.keys()].sort((a, b) => a - b).map((status) => [String(status), { ...statuses.get(status)! }]));
    }
    const all = [...this.#problems.values()].sort(
      (a, b) => compare(a.operationId, b.operationId) || a.status - b.status || compare(a.pointer, b.pointer) || compare(a.message, b.message),
    );
    const listed = (finding: boolean) => all.filter((problem) => problem.finding === finding).map(({ finding: _, ...problem }) => problem);
    return { operations, problems: listed(false), findings: listed(true), notRecorded };
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A table cell: sanitized (no control character acts on a reader), its pipes escaped. */
const cell = (text: string): string => sanitizeText(text).replaceAll("|", "\\|");

/** What `report.md` says besides the report: the open points shown, what the fixture holds, and what was left out. */
export interface ReportExtras {
  /** Lines about the switches written (`--page-base 1: GET … → 200 (/pageIndex)`). */
  readonly switches: readonly string[];
  /** The command line that replays the recording. */
  readonly replay: string;
  /** What the fixture holds, in one line. */
  readonly fixture: string;
  /** Notes: conversations left out, open points the sandbox cannot answer the recorded way, requests the upstream did not answer. */
  readonly notes: readonly string[];
}

/** `report.md`: the report for a person; also a GitHub job summary (`cat report.md >> "$GITHUB_STEP_SUMMARY"`). */
export function markdownReport(report: RecordReport, extras: ReportExtras): string {
  const rows = Object.entries(report.operations).flatMap(([operationId, statuses]) =>
    Object.entries(statuses).map(([status, counts]) => `| \`${cell(operationId)}\` | ${status} | ${counts.exchanges} | ${counts.invalid} |`),
  );
  const total =
    rows.length === 0
      ? 0
      : Object.values(report.operations)
          .flatMap((statuses) => Object.values(statuses))
          .reduce((sum, counts) => sum + counts.exchanges, 0);
  const invalid = Object.values(report.operations)
    .flatMap((statuses) => Object.values(statuses))
    .reduce((sum, counts) => sum + counts.invalid, 0);
  const { problems, findings } = report;
  const table = (list: readonly ReportProblem[]) => [
    "| Operation | Status | Pointer | Exchanges | Message |",
    "|---|---|---|---|---|",
    ...list.map(
      (problem) =>
        `| \`${cell(problem.operationId)}\` | ${problem.status} | \`${cell(problem.pointer || "(whole exchange)")}\` | ${problem.count} | ${cell(problem.message)} |`,
    ),
  ];
  return [
    "# Recording report",
    "",
    `${total} exchange${total === 1 ? "" : "s"} recorded, ${invalid} invalid against the description; ${problems.length} problem${problems.length === 1 ? "" : "s"}, ${findings.length} finding${findings.length === 1 ? "" : "s"}.`,
    "",
    "| Operation | Status | Exchanges | Invalid |",
    "|---|---|---|---|",
    ...rows,
    "",
    "## Problems",
    "",
    ...(problems.length === 0 ? ["None: every exchange fits the description."] : table(problems)),
    "",
    "## Findings",
    "",
    "Points the service leaves open, and fields or parameters the description does not list: never a reason to call an exchange invalid.",
    "",
    ...(findings.length === 0 ? ["None."] : table(findings)),
    "",
    "## Open points the traffic shows",
    "",
    ...(extras.switches.length === 0 ? ["None shown: the sandbox keeps its defaults."] : extras.switches.map((line) => `- ${cell(line)}`)),
    "",
    "## Replay",
    "",
    cell(extras.fixture),
    "",
    "In the recording's folder:",
    "",
    "```sh",
    extras.replay,
    "```",
    ...(extras.notes.length === 0 ? [] : ["", "## Notes", "", ...extras.notes.map((note) => `- ${cell(note)}`)]),
    "",
  ].join("\n");
}
