import type { Defect } from "../description.ts";
import { Answer, headerListOf } from "./answer.ts";

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

/** The reason phrases of RFC 9110 for the statuses the sandbox can answer with (a fault may use any from 300 to 599). */
const reasonPhrases: Record<number, string> = {
  300: "Multiple Choices",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  304: "Not Modified",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  417: "Expectation Failed",
  421: "Misdirected Request",
  422: "Unprocessable Content",
  426: "Upgrade Required",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
};

/** Builds an error answer; `mediaType` is the `errorMediaType` switch. */
export function problemAnswer(mediaType: string, status: number, detail: string, errors?: readonly Defect[], headers?: Record<string, string>): Answer {
  return new Answer(status, problemText(status, detail, errors), [...(headers === undefined ? [] : headerListOf(headers)), "content-type", mediaType]);
}

/** The JSON text of a problem. */
export function problemText(status: number, detail: string, errors?: readonly Defect[]): string {
  const body: Problem = { type: "about:blank", title: reasonPhrases[status] ?? "Error", status, detail, ...(errors ? { errors } : {}) };
  return JSON.stringify(body);
}

/** The answer to a request without an accepted token (a 401); `mediaType` is the `errorMediaType` switch. */
export function tokenRefused(mediaType: string): Answer {
  return problemAnswer(mediaType, 401, "Authorization failed. Check the X-Token header.");
}

/** The answer to a request whose kept state cannot be reached now (the database is gone): 503 with `Retry-After`. */
export function storeUnavailable(mediaType: string, error: { message: string; retryAfter: number }): Answer {
  return problemAnswer(mediaType, 503, error.message, undefined, { "retry-after": String(error.retryAfter) });
}
