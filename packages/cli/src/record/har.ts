/**
 * HAR 1.2 both ways. Out: `exchanges.har`, derived from the journal like every other file (secret-free,
 * pseudonymised), which browsers' devtools and Playwright's `routeFromHAR` read. In: a HAR that a browser
 * or Playwright's `recordHar` captured, read as the recorder reads live traffic (`record --from-har`).
 * The journal keeps no clock (the same traffic, the same bytes), so every entry's `startedDateTime` is
 * the Unix epoch (our choice; HAR requires the field) and its `time` the recorded duration.
 */
import { closeSync, createReadStream, createWriteStream, openSync, rmSync, writeSync } from "node:fs";
import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { exchangeBodyBytes, exchangeBodyText } from "@bot-conversation/sandbox";
import { version } from "../io.js";
import type { JournalEntry } from "./journal.js";
import type { RawExchange } from "./redact.js";

/** The origin of an entry whose journal line names none (recorded before origins were kept). */
const unknownOrigin = "http://upstream.invalid";

/** The epoch: every entry's `startedDateTime` (the journal keeps no clock). */
const epoch = "1970-01-01T00:00:00.000Z";

/** The largest HAR file read: 256 MiB (our choice, the sandbox's fixture limit). */
export const maxHarBytes = 256 * 2 ** 20;

/** `[name, value]` pairs as HAR's `{ name, value }` objects. */
const nameValues = (pairs: readonly (readonly [string, string])[]) => pairs.map(([name, value]) => ({ name, value }));

/** A header's value in pairs, or undefined. */
const headerIn = (pairs: readonly (readonly [string, string])[], name: string) => pairs.find(([key]) => key.toLowerCase() === name)?.[1];

/** One journal entry as a HAR 1.2 entry. */
export function harEntryOf(entry: JournalEntry): Record<string, unknown> {
  const { request, response } = entry;
  const query = Object.entries(request.query);
  const url = `${request.origin ?? unknownOrigin}${request.path}${query.length > 0 ? `?${new URLSearchParams(query)}` : ""}`;
  // Each body serialised once: a page of 500 conversations is half a megabyte of text.
  const requestText = exchangeBodyText(request.body);
  const base64 = "base64" in response.body;
  const responseText = base64 ? (response.body as { base64: string }).base64 : exchangeBodyText(response.body);
  const requestBytes = "base64" in request.body ? exchangeBodyBytes(request.body).length : Buffer.byteLength(requestText);
  const responseBytes = base64 ? exchangeBodyBytes(response.body).length : Buffer.byteLength(responseText);
  return {
    startedDateTime: epoch,
    time: entry.durationMs,
    request: {
      method: request.method,
      url,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: nameValues(request.headers),
      queryString: query.map(([name, value]) => ({ name, value })),
      ...(requestBytes > 0 ? { postData: { mimeType: headerIn(request.headers, "content-type") ?? "application/json", text: requestText } } : {}),
      headersSize: -1,
      bodySize: requestBytes,
    },
    response: {
      status: response.status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: nameValues(response.headers),
      content: {
        size: responseBytes,
        mimeType: headerIn(response.headers, "content-type") ?? "",
        ...(responseBytes > 0 ? { text: responseText } : {}),
        ...(base64 ? { encoding: "base64" } : {}),
      },
      redirectURL: headerIn(response.headers, "location") ?? "",
      headersSize: -1,
      bodySize: responseBytes,
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
  };
}

/**
 * The HAR's entries kept as they come, one a line, in a scratch file of the recording's folder: the stop
 * then writes `exchanges.har` by copying them between the HAR's head and tail, parsing nothing again (a
 * page of 500 conversations is half a megabyte: parsed again at the stop, a long recording's stop took
 * seconds more and its memory grew with the recording).
 */
export class HarEntries {
  readonly #scratchPath: string;
  #descriptor: number | undefined;
  #count = 0;

  /** `scratchPath`: where the entries wait until the HAR is written. */
  constructor(scratchPath: string) {
    this.#scratchPath = scratchPath;
  }

  /** Keeps the HAR entry of a journal entry. */
  append(entry: JournalEntry): void {
    this.#descriptor ??= openSync(this.#scratchPath, "w", 0o600);
    writeSync(this.#descriptor, `${this.#count === 0 ? "" : ",\n"}${JSON.stringify(harEntryOf(entry))}`);
    this.#count += 1;
  }

  /** Writes the HAR 1.2 file at `path` (a new file): its head, the entries kept, its tail. */
  async write(path: string): Promise<void> {
    await writeFile(path, `{"log":{"version":"1.2","creator":{"name":"bot-conversation record","version":${JSON.stringify(version)}},"entries":[\n`, {
      flag: "wx",
    });
    if (this.#descriptor !== undefined) {
      closeSync(this.#descriptor);
      this.#descriptor = undefined;
      await pipeline(createReadStream(this.#scratchPath), createWriteStream(path, { flags: "a" }));
    }
    await appendFile(path, `${this.#count === 0 ? "" : "\n"}]}}\n`);
  }

  /** Removes the scratch file. */
  discard(): void {
    if (this.#descriptor !== undefined) closeSync(this.#descriptor);
    this.#descriptor = undefined;
    rmSync(this.#scratchPath, { force: true });
  }
}

/** A HAR entry as far as it is read. */
interface HarEntry {
  readonly time?: number;
  readonly request?: {
    readonly method?: string;
    readonly url?: string;
    readonly headers?: { name: string; value: string }[];
    readonly postData?: { text?: string };
  };
  readonly response?: {
    readonly status?: number;
    readonly headers?: { name: string; value: string }[];
    readonly content?: { text?: string; encoding?: string };
  };
}

/** Headers as a raw list (`[name, value, …]`), HTTP/2's pseudo-headers (`:authority`) left out. */
const rawOf = (headers: readonly { name: string; value: string }[] | undefined): string[] =>
  (Array.isArray(headers) ? headers : []).flatMap((header) =>
    typeof header?.name === "string" && typeof header.value === "string" && !header.name.startsWith(":") ? [header.name, header.value] : [],
  );

/** The exchanges of a HAR file, as the recorder reads live ones; an entry with no answer (status 0: blocked, aborted) is counted apart. A file that is no HAR is a `TypeError` naming `--from-har`. */
export async function readHar(path: string): Promise<{ readonly exchanges: RawExchange[]; readonly unanswered: number }> {
  const { size } = await stat(path);
  if (size > maxHarBytes)
    throw new TypeError(`--from-har ${path}: is ${Math.ceil(size / 2 ** 20)} MiB, larger than the ${maxHarBytes / 2 ** 20} MiB a HAR may be`);
  let har: { log?: { entries?: unknown } };
  try {
    har = JSON.parse(await readFile(path, "utf8")) as typeof har;
  } catch {
    throw new TypeError(`--from-har ${path}: is not JSON; expected a HAR file (HAR 1.2, as browsers and Playwright's recordHar write)`);
  }
  if (!Array.isArray(har?.log?.entries)) throw new TypeError(`--from-har ${path}: has no log.entries; expected a HAR file (HAR 1.2)`);
  const exchanges: RawExchange[] = [];
  let unanswered = 0;
  (har.log.entries as HarEntry[]).forEach((entry, index) => {
    const url = entry?.request?.url;
    if (typeof entry?.request?.method !== "string" || typeof url !== "string" || !URL.canParse(url) || typeof entry.response?.status !== "number")
      throw new TypeError(`--from-har ${path}: log.entries[${index}] is not an entry (request.method, request.url, response.status)`);
    if (entry.response.status < 100) {
      unanswered += 1;
      return;
    }
    const content = entry.response.content;
    const text = typeof content?.text === "string" ? content.text : "";
    const target = new URL(url);
    exchanges.push({
      method: entry.request.method.toUpperCase(),
      target,
      origin: target.origin,
      requestHeaders: rawOf(entry.request.headers),
      requestBody: new TextEncoder().encode(typeof entry.request.postData?.text === "string" ? entry.request.postData.text : ""),
      status: entry.response.status,
      responseHeaders: rawOf(entry.response.headers),
      // Browsers and Playwright write the body decoded (its Content-Encoding already undone); base64 when it is binary.
      responseBody: content?.encoding === "base64" ? Buffer.from(text, "base64") : new TextEncoder().encode(text),
      durationMs: typeof entry.time === "number" && entry.time >= 0 ? entry.time : 0,
    });
  });
  return { exchanges, unanswered };
}
