import { parseDateTime } from "@bot-conversation/client";
import { unholdableJsonDefects, unholdableText } from "../data/text-limits.ts";
import { type Checker, type Defect, type ParameterDescription, type SchemaObject, serviceChecker, wrongValueMessage } from "../description.ts";
import { type Checked, parseJson } from "../json.ts";

/** How to read the query string of an operation. */
export interface QueryRules {
  /** Reject parameters the description does not list (the `unknownParameters` switch). */
  readonly rejectUnknown: boolean;
  /** Turns a value into the form the schema checks, e.g. `active` into `Active` when `status` ignores case. */
  readonly normalize?: (name: string, value: string) => string;
}

/**
 * The query of an absolute URL as a request carries it, as `new URL(url).searchParams` reads it,
 * without parsing the rest of the URL (most of a search's time went to parsing URLs it had already).
 */
export function queryOf(url: string): URLSearchParams {
  const hash = url.indexOf("#");
  const end = hash < 0 ? url.length : hash;
  const start = url.indexOf("?");
  // From the `?` on: the constructor drops one leading `?`, so a query that itself starts with `?` keeps it.
  return new URLSearchParams(start < 0 || start > end ? "" : url.slice(start, end));
}

/**
 * The parameters of a query its checker accepted, each sent one as its schema's type: an integer's number, a
 * `date-time`'s instant (epoch milliseconds, by the one date rule `parseDateTime`), any other's text.
 */
export type QueryValues = Record<string, string | number>;

/** Keywords that say nothing about which values a schema accepts. */
const annotations = new Set(["type", "format", "title", "description", "examples", "example", "$comment"]);

/**
 * The query parameters of an operation, each checked by its schema from the description (compiled once). A
 * `date-time` is read once, by the one date rule (`parseDateTime`, which is also what the schema's `format` means),
 * and handed back as its instant, so no reader of the query parses it again.
 */
export function queryChecker(parameters: readonly ParameterDescription[], compile: (schema: SchemaObject) => Checker = serviceChecker) {
  // A parameter's example goes with its schema, so a wrong value is said with it (as the CLI and the MCP server say it).
  const query = parameters
    .filter((parameter) => parameter.in === "query")
    .map((parameter) =>
      parameter.example === undefined || "examples" in parameter.schema
        ? parameter
        : { ...parameter, schema: { ...parameter.schema, examples: [parameter.example] } },
    );
  const checkers = new Map<string, Checker>(query.map((parameter) => [parameter.name, compile(parameter.schema)]));
  const names = new Set(query.map((parameter) => parameter.name));
  // A date-time's check once it was read: none when its schema says nothing else (today's search dates), else the schema without its format.
  const instantCheckers = new Map<string, Checker | undefined>(
    query
      .filter(({ schema }) => schema["type"] === "string" && schema["format"] === "date-time")
      .map(({ name, schema }) => {
        const { format: _read, ...rest } = schema;
        return [name, Object.keys(rest).every((keyword) => annotations.has(keyword)) ? undefined : compile(rest)];
      }),
  );

  /** Every listed parameter that was sent, as its schema's type (a date-time as its instant); or every defect, each naming its parameter. */
  return (searchParams: URLSearchParams, rules: QueryRules): Checked<QueryValues> => {
    const defects: Defect[] = [];
    const values: QueryValues = {};
    // The query read once, each value under its name (most searches send a few parameters, or none).
    const given = new Map<string, string[]>();
    for (const [name, value] of searchParams) {
      const before = given.get(name);
      if (before === undefined) given.set(name, [value]);
      else before.push(value);
    }
    // Only a sandbox that refuses unlisted parameters looks for them.
    for (const name of rules.rejectUnknown ? given.keys() : []) {
      if (!names.has(name)) {
        defects.push({
          path: `query.${name}`,
          message: `is not a parameter of this operation; ${names.size === 0 ? "it takes no query parameters" : `expected one of ${[...names].join(", ")}`}`,
        });
      }
    }
    for (const parameter of query) {
      const sent = given.get(parameter.name) ?? none;
      const path = `query.${parameter.name}`;
      if (sent.length === 0) {
        if (parameter.required) defects.push({ path, message: wrongValueMessage(parameter.schema, undefined) });
        continue;
      }
      if (sent.length > 1) {
        defects.push({ path, message: `must be sent once; got ${sent.length} values` });
        continue;
      }
      const unholdable = unholdableText(sent[0]!);
      if (unholdable) {
        defects.push({ path, message: unholdable });
        continue;
      }
      const text = rules.normalize ? rules.normalize(parameter.name, sent[0]!) : sent[0]!;
      if (instantCheckers.has(parameter.name)) {
        const instant = parseDateTime(text);
        // A date the rule refuses is said by the schema's check, in the one wording (only a refused date is read twice).
        const wrong = Number.isNaN(instant) ? checkers.get(parameter.name)! : instantCheckers.get(parameter.name);
        defects.push(...(wrong?.(text, path, sent[0]) ?? []));
        values[parameter.name] = instant;
        continue;
      }
      const value = parameter.schema["type"] === "integer" ? toInteger(text) : text;
      if (value === undefined) {
        // Digits past the safe range: the range is said (from the schema's minimum, when it has one).
        const schema = /^-?\d+$/.test(text) ? { minimum: Number.MIN_SAFE_INTEGER, ...parameter.schema, maximum: Number.MAX_SAFE_INTEGER } : parameter.schema;
        defects.push({ path, message: wrongValueMessage(schema, sent[0]) });
        continue;
      }
      // A wrong value is said as it was sent (text, as the CLI says a flag's), not as the schema read it.
      defects.push(...checkers.get(parameter.name)!(value, path, sent[0]));
      values[parameter.name] = value;
    }
    return defects.length > 0 ? { ok: false, status: 400, detail: "Invalid query parameters.", defects } : { ok: true, value: values };
  };
}

const none: readonly string[] = Object.freeze([]);

/** A decimal integer written plainly (no sign but `-`, no exponent, no spaces), within the safe range. */
function toInteger(text: string): number | undefined {
  if (!/^-?\d{1,16}$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * A request's body as its transport reads it (`http/node-adapter.ts` from Node's `IncomingMessage`, `fetchBodyOf`
 * from a Fetch `Request`): the headers that say what it is, whether there is one, and the whole of it read once.
 * No `Request`, `Headers` or web stream is made to read a body over Node's HTTP server.
 */
export interface RequestBody {
  /** The `Content-Type` header, or `undefined`. */
  readonly contentType: string | undefined;
  /** The `Content-Length` header, or `undefined`. */
  readonly contentLength: string | undefined;
  /** Whether the request carries a body, from its headers where they say it (a `Content-Length` not `0`, or a `Transfer-Encoding`): never read for it. */
  readonly present: boolean;
  /**
   * The body whole, decoded as UTF-8 (a leading BOM dropped, as `Request.text()` drops it), when it holds at most
   * `maxBytes`; `undefined` as soon as it passes them, the rest read and dropped so that the answer still reaches the
   * client on its open connection. Rejects when the client stops sending it. Called once per request (`readText`).
   */
  read(maxBytes: number): Promise<string | undefined>;
}

/** Reads a JSON request body: `application/json` only, at most `maxBytes`, parsed; defects otherwise. */
export function readJsonBody(body: RequestBody, maxBytes: number, required = true): Promise<Checked<unknown>> {
  const { contentType, contentLength: declared } = body;
  const length = Number(declared ?? Number.NaN);
  // An optional body may be left out, with or without `Content-Length: 0` (curl -X POST sends neither); one sent
  // without a content type is read to tell: empty, it was left out; with content, a 415 names the header.
  if (contentType === undefined && !required) {
    if (length === 0 || !body.present) return Promise.resolve(leftOut);
    return readText(body, maxBytes).then((text) => (text === "" ? leftOut : notJson(contentType)), cutOffRead);
  }
  // The usual header as it is; any other (parameters, letter case, spaces) read for its media type.
  const mediaType = contentType === "application/json" ? contentType : contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") return Promise.resolve(notJson(contentType));
  if (length > maxBytes) return Promise.resolve(tooLarge(maxBytes));
  return readText(body, maxBytes).then((text) => jsonOf(text, maxBytes, required), cutOffRead);
}

/** A body's text as JSON (see `readJsonBody`): too large, left out (an optional one, blank), invalid, or its value. */
function jsonOf(text: string | undefined, maxBytes: number, required: boolean): Checked<unknown> {
  if (text === undefined) return tooLarge(maxBytes);
  if (!required && text.trim() === "") return leftOut;
  const parsed = parseJson(text, "The request body");
  if (!parsed.ok) return parsed;
  // Text no store can keep (NUL, an unpaired surrogate) is refused here, for every route and every mode.
  const defects = unholdableJsonDefects(text, parsed.value);
  return defects.length > 0 ? { ok: false, status: 400, detail: "The request body holds text the sandbox cannot keep.", defects } : parsed;
}

/** An optional body left out. */
const leftOut: Checked<unknown> = Object.freeze({ ok: true, value: undefined });

/** A body that is not JSON by its content type: a 415 naming the header. */
function notJson(contentType: string | undefined): Checked<never> {
  return {
    ok: false,
    status: 415,
    detail: "The request body must be JSON.",
    defects: [{ path: "header.content-type", message: `must be application/json; got ${contentType === undefined ? "none" : JSON.stringify(contentType)}` }],
  };
}

/**
 * A body the client stopped sending (its connection closed first): nobody reads this answer, but the journal keeps
 * the request with its note and the log line its status, never an internal error. A 400: our choice.
 */
const cutOff: Extract<Checked<never>, { ok: false }> = {
  ok: false,
  status: 400,
  detail: "The request body was cut off.",
  defects: [{ path: "$", message: "the client stopped sending it before its end" }],
};

/** The answer to a body whose read failed (see `cutOff`). */
const cutOffRead = (): Checked<never> => cutOff;

function tooLarge(maxBytes: number): Checked<never> {
  return {
    ok: false,
    status: 413,
    detail: "The request body is too large.",
    defects: [{ path: "$", message: `must be at most ${maxBytes} bytes (the sandbox's limit)` }],
  };
}

/** What became of a request's body once a route read it: its text, or that it was over the route's limit or cut off. */
export type BodyRead = { readonly text: string } | { readonly over: number } | { readonly aborted: true };

/** The bodies read so far, by request: the request journal keeps what the route read, without reading it again. */
const bodiesRead = new WeakMap<RequestBody, BodyRead>();

/** What `readText` made of the request's body, or `undefined` when nothing read it. */
export function bodyRead(body: RequestBody): BodyRead | undefined {
  return bodiesRead.get(body);
}

/** The body as text, or `undefined` as soon as it passes `maxBytes` (see `RequestBody.read`); what became of it is kept for `bodyRead`. */
export function readText(body: RequestBody, maxBytes: number): Promise<string | undefined> {
  // No body by its headers (`present`: a `Content-Length: 0` is none), read as empty without reading.
  if (!body.present) return Promise.resolve("");
  return body.read(maxBytes).then(
    (text) => {
      bodiesRead.set(body, text === undefined ? { over: maxBytes } : { text });
      return text;
    },
    (error: unknown) => {
      bodiesRead.set(body, { aborted: true });
      throw error;
    },
  );
}

/** Decodes a body's bytes as `Request.text()` does: UTF-8, a leading BOM dropped, a malformed sequence replaced. */
const utf8 = new TextDecoder();

/** A body's bytes as text (see `utf8`). */
export function bodyText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * A Fetch `Request`'s body as the pipeline reads it (the Fetch adapter's, and the Node adapter's once it made a
 * `Request`): a body whose `Content-Length` is within the limit is read in one call; any other chunk by chunk,
 * counting, cancelled (the rest dropped) past the limit.
 */
export function fetchBodyOf(request: Request): RequestBody {
  const { headers } = request;
  const contentLength = headers.get("content-length") ?? undefined;
  return {
    contentType: headers.get("content-type") ?? undefined,
    contentLength,
    present: contentLength !== undefined ? contentLength !== "0" : request.body !== null,
    read: async (maxBytes) =>
      contentLength !== undefined && /^\d+$/.test(contentLength) && Number(contentLength) <= maxBytes
        ? bodyText(new Uint8Array(await request.arrayBuffer()))
        : readCounting(request, maxBytes),
  };
}

async function readCounting(request: Request, maxBytes: number): Promise<string | undefined> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bodyText(bytes);
}
