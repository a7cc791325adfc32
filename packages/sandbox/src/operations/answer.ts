/**
 * The pipeline's answer, of our own rather than the Fetch `Response`: a status, a body already in memory (text or
 * bytes, or none) and its headers as one flat list of lower-case names and values (name, value, name, value…). Each
 * transport writes it its own way (`http/node-adapter.ts`: one `writeHead` and one `end`; `http/fetch-adapter.ts`: a
 * `Response`), so a search answered over HTTP builds no `Response`, no `Headers` and no stream. A route whose
 * headers never change (a search page) hands the same frozen list to every answer.
 */

/** Headers as a flat list of lower-case names and values: `["content-type", "application/json", …]`. */
export type HeaderList = readonly string[];

/** What the pipeline answers a request with (see the module's comment). */
export class Answer {
  /** The HTTP status. */
  readonly status: number;
  /** The body: UTF-8 text, bytes, or `null` for none. */
  readonly body: string | Uint8Array | null;
  /** Its headers, names in lower case (no `content-length`: the transport writes the length of what it sends). */
  readonly headers: HeaderList;

  constructor(status: number, body: string | Uint8Array | null, headers: HeaderList = noHeaders) {
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  /** The value of a header (its name in lower case), or `undefined`. */
  header(name: string): string | undefined {
    for (let index = 0; index < this.headers.length; index += 2) if (this.headers[index] === name) return this.headers[index + 1];
    return undefined;
  }

  /** The same answer with more headers after its own (the list given is flat, names in lower case). */
  withHeaders(more: HeaderList): Answer {
    return more.length === 0 ? this : new Answer(this.status, this.body, [...this.headers, ...more]);
  }
}

const noHeaders: HeaderList = Object.freeze([]);

/** The list of a JSON answer's one header, shared by every such answer. */
export const jsonHeaders: HeaderList = Object.freeze(["content-type", "application/json"]);

/** A JSON answer (`JSON.stringify` of `value`), status 200 unless given, with more headers after its content type. */
export function jsonAnswer(value: unknown, status = 200, headers?: Readonly<Record<string, string>>): Answer {
  return new Answer(status, JSON.stringify(value), headers === undefined ? jsonHeaders : [...jsonHeaders, ...headerListOf(headers)]);
}

/** An answer without a body (a 204, a fire's 200). */
export function emptyAnswer(status: number, headers?: Readonly<Record<string, string>>): Answer {
  return new Answer(status, null, headers === undefined ? noHeaders : headerListOf(headers));
}

/** Headers of a record as a flat list, names in lower case. */
export function headerListOf(headers: Readonly<Record<string, string>>): string[] {
  const list: string[] = [];
  for (const name in headers) list.push(name.toLowerCase(), headers[name]!);
  return list;
}
