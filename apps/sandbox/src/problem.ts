import { STATUS_CODES } from "node:http";
import type { Defect } from "./description.ts";

/** An error answer of the sandbox: RFC 9457 problem-details fields, with every defect in `errors`. */
export interface Problem {
  /** Always `about:blank`: the status says what kind of problem it is. */
  readonly type: "about:blank";
  /** The status phrase, e.g. `Bad Request`. */
  readonly title: string;
  /** The HTTP status. */
  readonly status: number;
  /** What was wrong, in one sentence. */
  readonly detail: string;
  /** Every defect, when there are several things to point at. */
  readonly errors?: readonly Defect[];
}

/** Builds an error response; `mediaType` is the `errorMediaType` switch. */
export function problemResponse(
  mediaType: string,
  status: number,
  detail: string,
  errors?: readonly Defect[],
  headers: Record<string, string> = {},
): Response {
  const body: Problem = { type: "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail, ...(errors ? { errors } : {}) };
  return new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": mediaType } });
}
