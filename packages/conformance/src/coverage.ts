import type { Description } from "./description.ts";
import type { LoggedExchange } from "./session.ts";

/** One documented status of an operation (or one seen that is not documented). */
export interface StatusCoverage {
  /** The status or range as the description writes it (`200`, `4XX`), or a status seen but not documented. */
  readonly status: string;
  /** Whether the description documents it. */
  readonly documented: boolean;
  /** How many responses had it. */
  readonly responses: number;
}

/** One parameter of an operation. */
export interface ParameterCoverage {
  /** Parameter name. */
  readonly name: string;
  /** `query` or `path`. */
  readonly in: string;
  /** How many requests carried it. */
  readonly requests: number;
  /** How many of those returned data (a search with at least one item; for other operations, a 2xx). */
  readonly withData: number;
}

/** What the run exercised of one operation. */
export interface OperationCoverage {
  /** operationId. */
  readonly operationId: string;
  /** Method and path template. */
  readonly route: string;
  /** Requests sent. */
  readonly requests: number;
  /** Requests that returned data (a search with at least one item; for other operations, a 2xx). */
  readonly withData: number;
  /** Documented statuses (and undocumented ones seen). */
  readonly statuses: readonly StatusCoverage[];
  /** Parameters. */
  readonly parameters: readonly ParameterCoverage[];
}

/** Whether `status` falls under a documented key (`404`, `4XX`, `default`). */
const under = (key: string, status: number): boolean => key === String(status) || key === `${String(status)[0]}XX`;

/** Operations × documented statuses × parameters: what the run exercised, and what returned data. */
export function coverageOf(description: Description, log: readonly LoggedExchange[]): OperationCoverage[] {
  return [...description.operations.values()].map((operation) => {
    const mine = log.filter((entry) => entry.operationId === operation.id && entry.status > 0);
    const keys = [...operation.responses.keys()];
    const statuses: StatusCoverage[] = keys.map((key) => ({
      status: key,
      documented: true,
      // An exact key takes its status; a range or default takes what no exact key took.
      responses: mine.filter((entry) =>
        key === "default"
          ? !keys.some((other) => under(other, entry.status))
          : under(key, entry.status) && (key === String(entry.status) || !keys.includes(String(entry.status))),
      ).length,
    }));
    const seenUndocumented = [...new Set(mine.map((entry) => entry.status))].filter(
      (status) => !keys.some((key) => under(key, status)) && !keys.includes("default"),
    );
    for (const status of seenUndocumented)
      statuses.push({ status: String(status), documented: false, responses: mine.filter((entry) => entry.status === status).length });
    const parameters = operation.parameters.map((parameter): ParameterCoverage => {
      const carrying = parameter.in === "path" ? mine : mine.filter((entry) => entry.parameters.includes(parameter.name));
      const withData = carrying.filter((entry) =>
        operation.id === "searchConversations" ? entry.returnedData : entry.status >= 200 && entry.status < 300,
      ).length;
      return { name: parameter.name, in: parameter.in, requests: carrying.length, withData };
    });
    const withData = mine.filter((entry) => (operation.id === "searchConversations" ? entry.returnedData : entry.status >= 200 && entry.status < 300)).length;
    return { operationId: operation.id, route: `${operation.method} ${operation.path}`, requests: mine.length, withData, statuses, parameters };
  });
}

/** The weak-data warning: every search filter that no request exercised with results. */
export function weakDataWarnings(coverage: readonly OperationCoverage[]): string[] {
  const search = coverage.find((operation) => operation.operationId === "searchConversations");
  if (!search) return [];
  return search.parameters
    .filter((parameter) => parameter.in === "query" && !["pageSize", "pageIndex"].includes(parameter.name) && parameter.withData === 0)
    .map((parameter) =>
      parameter.requests === 0
        ? `${parameter.name} was never sent: its filter is untested.`
        : `${parameter.name} never returned a conversation (${parameter.requests} searches): its filter was not exercised with results; give the server data it can find (or --agent-stage-id of a bot with conversations).`,
    );
}

/** Coverage as a text table for the human report. */
export function coverageText(coverage: readonly OperationCoverage[]): string[] {
  const lines: string[] = [];
  for (const operation of coverage) {
    const statuses = operation.statuses
      .map((entry) => `${entry.status}${entry.documented ? "" : " (undocumented)"} ${entry.responses > 0 ? `✓${entry.responses}` : "-"}`)
      .join(", ");
    lines.push(`  ${operation.operationId} (${operation.route}): ${operation.requests} requests, ${operation.withData} with data`, `    statuses: ${statuses}`);
    if (operation.parameters.length > 0) {
      lines.push(
        `    parameters: ${operation.parameters.map((parameter) => `${parameter.name} ${parameter.requests} sent / ${parameter.withData} with data`).join(", ")}`,
      );
    }
  }
  return lines;
}
