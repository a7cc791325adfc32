/**
 * HAR 1.2 both ways. Out: `exchanges.har`, derived from the journal like every other file (secret-free,
 * pseudonymised), which browsers' devtools and Playwright's `routeFromHAR` read. In: a HAR that a browser
 * or Playwright's `recordHar` captured, read as the recorder reads live traffic (`record --from-har`).
 * The journal keeps no clock (the same traffic, the same bytes), so every entry's `startedDateTime` is
 * the Unix epoch (our choice; HAR requires the field) and its `time` the recorded duration.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { exchangeBodyBytes, exchangeBodyText } from "@bot-conversation/sandbox";
import { version } from "../io.js";
import { type JournalEntry, readJournal } from "./journal.js";
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
  const requestBytes = exchangeBodyBytes(request.body).length;
  const responseBytes = exchangeBodyBytes(response.body).length;
  const base64 = "base64" in response.body;
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
      ...(requestBytes > 0
        ? { postData: { mimeType: headerIn(request.headers, "content-type") ?? "application/json", text: exchangeBodyText(request.body) } }
        : {}),
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
        ...(responseBytes > 0 ? { text: base64 ? (response.body as { base64: string }).base64 : exchangeBodyText(response.body) } : {}),
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

/** Writes the journal at `journalPath` as a HAR 1.2 file at `path`, one entry a line. */
export async function writeHar(journalPath: string, path: string): Promise<void> {
  const out = createWriteStream(path, { flags: "wx" });
  let failure: Error | undefined;
  out.on("error", (error) => (failure ??= error));
  const write = async (text: string) => {
    if (failure) throw failure;
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`{"log":{"version":"1.2","creator":{"name":"bot-conversation record","version":${JSON.stringify(version)}},"entries":[\n`);
  let written = 0;
  for await (const line of readJournal(journalPath)) {
    if (!("entry" in line)) continue;
    await write(`${written === 0 ? "" : ",\n"}${JSON.stringify(harEntryOf(line.entry))}`);
    written += 1;
  }
  await write(`${written === 0 ? "" : "\n"}]}}\n`);
  out.end();
  if (!out.closed) await once(out, "close");
  if (failure) throw failure;
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
