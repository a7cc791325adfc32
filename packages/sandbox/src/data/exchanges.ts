/**
 * Exact replay of a recording: the exchanges `bot-conversation record` journals (`exchanges.ndjson`, one
 * `ExchangeRecord` a line). A request that the recording holds (the same method, path, query and body,
 * sent with an accepted token) is answered with its recorded status, headers and body; every other
 * request is left to the sandbox's rules over its data. The same request recorded several times is
 * answered in the recorded order, the last answer repeating (our choice: a retry recorded as a 503 then
 * a 200 replays so). A recorded 401 is never replayed: whether a token is accepted is the sandbox's own
 * rule. Nothing here touches the file system: the MSW handlers take the records as objects.
 */

/** A body as a recording keeps it: parsed JSON, text, base64 (bytes that are not UTF-8), or none (`{}`). */
export type ExchangeBody = { readonly json: unknown } | { readonly text: string } | { readonly base64: string } | Record<string, never>;

/** One recorded exchange: a line of `exchanges.ndjson`. */
export interface ExchangeRecord {
  /** The request, without its secrets. */
  readonly request: {
    /** The origin it was sent to (the upstream's base URL, path prefix included), when known: the HAR's URLs start with it. */
    readonly origin?: string;
    /** HTTP method, upper case. */
    readonly method: string;
    /** Path without the query string. */
    readonly path: string;
    /** Query parameters (the last value of a repeated one). */
    readonly query: Readonly<Record<string, string>>;
    /** Headers, `[name, value]` pairs, secret and connection headers left out. */
    readonly headers: readonly (readonly [string, string])[];
    /** Its body. */
    readonly body: ExchangeBody;
  };
  /** The answer, its body decoded from its content encoding. */
  readonly response: {
    /** Status. */
    readonly status: number;
    /** Headers, `[name, value]` pairs: secret, connection and framing headers (`Content-Length`, `Content-Encoding`) left out. */
    readonly headers: readonly (readonly [string, string])[];
    /** Its body. */
    readonly body: ExchangeBody;
  };
  /** Milliseconds from the request's arrival to the answer read whole. */
  readonly durationMs: number;
}

/** A body as text: JSON serialised, base64 decoded as UTF-8 (with replacement characters), `""` for none. */
export function exchangeBodyText(body: ExchangeBody): string {
  if ("json" in body) return JSON.stringify(body.json);
  if ("text" in body) return body.text;
  if ("base64" in body) return new TextDecoder().decode(bytesOfBase64(body.base64));
  return "";
}

/** A body as the bytes a replay answers. */
export function exchangeBodyBytes(body: ExchangeBody): Uint8Array<ArrayBuffer> {
  return "base64" in body ? bytesOfBase64(body.base64) : new TextEncoder().encode(exchangeBodyText(body));
}

const bytesOfBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (character) => character.charCodeAt(0));

/** JSON with every object's keys in order: two bodies that differ only in key order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** The body of a request as the key compares it: canonical JSON, or the text as sent. */
function bodyKey(text: string): string {
  if (text === "") return "";
  try {
    return `json:${canonical(JSON.parse(text))}`;
  } catch {
    return `text:${text}`;
  }
}

/** The key of a request: method, path, query (sorted) and body. */
const keyOf = (method: string, path: string, query: Readonly<Record<string, string>>, body: string): string =>
  JSON.stringify([method.toUpperCase(), path, Object.entries(query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), body]);

/** Statuses whose responses have no body (RFC 9110). */
const bodiless = new Set([204, 205, 304]);

/** Checks records given as objects (the `exchanges` option); a `TypeError` names the first one that is not a recorded exchange. */
export function checkExchanges(records: unknown, source = "exchanges"): readonly ExchangeRecord[] {
  if (!Array.isArray(records)) throw new TypeError(`${source}: expected an array of recorded exchanges (the lines of exchanges.ndjson); got ${typeof records}`);
  records.forEach((record, index) => {
    const entry = record as Partial<ExchangeRecord> | null;
    if (
      typeof entry?.request?.method !== "string" ||
      typeof entry.request.path !== "string" ||
      typeof entry.request.query !== "object" ||
      !Number.isInteger(entry.response?.status) ||
      !Array.isArray(entry.response?.headers) ||
      typeof entry.response?.body !== "object"
    )
      throw new TypeError(
        `${source}[${index}]: expected a recorded exchange { request: { method, path, query, headers, body }, response: { status, headers, body } }`,
      );
  });
  return records as ExchangeRecord[];
}

/** The lines of `exchanges.ndjson` as records; a line that is not one is a `TypeError` naming `source` and the line. */
export function parseExchanges(text: string, source: string): ExchangeRecord[] {
  return text.split("\n").flatMap((line, index) => {
    if (line.trim() === "") return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new TypeError(`${source}: line ${index + 1} is not JSON; expected one recorded exchange a line (exchanges.ndjson)`);
    }
    return [...checkExchanges([parsed], `${source}: line ${index + 1}`)];
  });
}

/** Answers the recorded requests. */
export class ExchangeReplay {
  readonly #answers = new Map<string, { readonly records: ExchangeRecord[]; next: number }>();

  /** Holds `records` (a recorded 401 is left out: the sandbox's token rule answers). */
  constructor(records: readonly ExchangeRecord[]) {
    for (const record of records) {
      // A status a Response cannot carry (an informational one) is not replayed either.
      if (record.response.status === 401 || record.response.status < 200 || record.response.status > 599) continue;
      const { method, path, query, body } = record.request;
      const key = keyOf(method, path, query, bodyKey(exchangeBodyText(body)));
      const known = this.#answers.get(key);
      if (known) known.records.push(record);
      else this.#answers.set(key, { records: [record], next: 0 });
    }
  }

  /** How many requests the replay can answer (different keys). */
  get size(): number {
    return this.#answers.size;
  }

  /** The recorded answer to `request`, or undefined when the recording does not hold it (the request's body is left unread then). */
  async answer(request: Request): Promise<Response | undefined> {
    if (this.#answers.size === 0) return undefined;
    const url = new URL(request.url);
    const query = Object.fromEntries(url.searchParams);
    const body = request.body === null ? "" : bodyKey(await request.clone().text());
    const found = this.#answers.get(keyOf(request.method, url.pathname, query, body));
    if (!found) return undefined;
    const record = found.records[Math.min(found.next, found.records.length - 1)]!;
    found.next += 1;
    const { status, headers, body: recorded } = record.response;
    return new Response(bodiless.has(status) || request.method === "HEAD" ? null : exchangeBodyBytes(recorded), {
      status,
      headers: headers.map(([name, value]): [string, string] => [name, value]),
    });
  }
}
