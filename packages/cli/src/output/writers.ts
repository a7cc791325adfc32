import { redactText, truncateText } from "@bot-conversation/client/text";
import { write } from "../io.js";
import { type Column, cellText } from "./columns.js";
import { objectCount, objectSpansOfArray, textsOfSpans } from "./json-text.js";

/** Writes records in one output format, batch by batch (a page at a time), so memory stays flat. */
export interface RecordWriter {
  /**
   * Writes a batch of records. `pageText`: the JSON text they were read from, when they are every item of
   * a search page (`items`), as the client read it: NDJSON writes their text from it, not serialised again.
   */
  write(records: readonly unknown[], pageText?: string): Promise<void>;
  /** Finishes the output (the closing bracket of a JSON array). */
  end(): Promise<void>;
}

/** A CSV field by RFC 4180: quoted when it holds a quote, a comma, or a line break; quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A cell a spreadsheet will not run as a formula, by OWASP's CSV-injection advice: a cell that begins
 * with `=`, `+`, `-`, `@`, a TAB or a CR gets a leading `'` (so `-3` reads `'-3`). `--csv-raw` skips it.
 */
export const formulaSafe = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** What every writer needs besides its stream: the secrets to redact, and whether CSV cells stay raw. */
export interface WriterOptions {
  /** Token values (every one read): replaced by `[redacted]` in every record, whatever the format. */
  readonly secrets: readonly string[];
  /** `--csv-raw`: CSV cells exactly as the service sent them, formulas included. */
  readonly csvRaw?: boolean | undefined;
}

/**
 * Characters of text written at once, at most about: a page of 500 records is written in parts, not as one string of
 * its size. 64 KiB (our choice, measured): a page of 500 summaries (311 KB) was written in about 280 µs, against
 * 330 in parts of 32 KiB (twice the writes) and 510 in parts of 128 KiB (a string past 128 KiB is V8's large object).
 */
const writeChunk = 64 * 1024;

/**
 * Writes the text of each record in turn, in parts of about `writeChunk`
 * characters: no string as large as a page is built, so a long export keeps the heap small.
 */
async function writeRecords(stream: NodeJS.WritableStream, records: readonly unknown[], text: (record: unknown) => string): Promise<void> {
  let part = "";
  for (const record of records) {
    part += text(record);
    if (part.length >= writeChunk) {
      await write(stream, part);
      part = "";
    }
  }
  if (part) await write(stream, part);
}

/**
 * The secrets as they appear in JSON text: as they are, and JSON-escaped (a `"` or `\` in a token is
 * escaped in the text), so a record's JSON is redacted without being parsed again.
 */
const jsonSecrets = (secrets: readonly string[]): string[] => [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))];

/** Characters of a text read to choose the character a secret is looked for by (`holdsSecret`). */
const sampleLength = 4096;

/**
 * Whether `text` holds any of `secrets` (the empty one aside). Each is looked for by its rarest character in the
 * text's first `sampleLength` characters, each place of that character checked for the whole secret around it:
 * V8 finds one character as fast as memory is read, where a search for the whole secret read a page of 500
 * conversations about ten times slower (a token starting with a letter as common as its `s`). Any occurrence of a
 * secret holds that character at its place, so none is missed, whatever the sample.
 */
export function holdsSecret(text: string, secrets: readonly string[]): boolean {
  const sample = text.slice(0, sampleLength);
  for (const secret of secrets) {
    if (!secret) continue;
    // The secret's character seen least in the sample, and where it stands in the secret.
    let [anchor, fewest] = [0, Infinity];
    for (let at = 0; at < secret.length && fewest > 0; at++) {
      let seen = 0;
      for (let found = sample.indexOf(secret[at]!); found !== -1 && seen < fewest; found = sample.indexOf(secret[at]!, found + 1)) seen++;
      if (seen < fewest) [anchor, fewest] = [at, seen];
    }
    const character = secret[anchor]!;
    for (let found = text.indexOf(character, anchor); found !== -1; found = text.indexOf(character, found + 1))
      if (text.startsWith(secret, found - anchor)) return true;
  }
  return false;
}

/** `text` redacted of `hidden`, looked for first: most records hold no secret, and a search is cheaper than a rewrite. */
const redacted = (text: string, hidden: readonly string[]): string => (holdsSecret(text, hidden) ? redactText(text, hidden) : text);

/**
 * Where each record of a page stands in the page's text as read (`objectSpansOfArray`: start and end, one pair
 * after the other), when its text can be written as it stands: one line each (no line break in the text), as
 * many as the records parsed, and nothing to redact. A secret is looked for in the whole text at once, as it is
 * and JSON-escaped; a text with a `\u` or `\/` escape (which could spell a secret some other way) is serialised
 * again instead. When no brace of the text stands inside a string (its braces as many as the page's objects: the
 * records' and the envelope), the records are found from brace to brace, not by scanning their strings.
 */
function spansToWrite(pageText: string | undefined, records: readonly unknown[], hidden: readonly string[]): number[] | undefined {
  if (pageText === undefined || /[\n\r]|\\[u/]/.test(pageText) || holdsSecret(pageText, hidden)) return undefined;
  const spans = objectSpansOfArray(pageText, "items", objectCount(records) + 1);
  return spans?.length === records.length * 2 ? spans : undefined;
}

/** One JSON object per line: a page's records cut from the text the client read when it can (`spansToWrite`), else each serialised and redacted. */
export function ndjsonWriter(stream: NodeJS.WritableStream, { secrets }: WriterOptions): RecordWriter {
  const hidden = jsonSecrets(secrets);
  return {
    write: (records, pageText) => {
      const spans = spansToWrite(pageText, records, hidden);
      return spans
        ? writeRecords(stream, textsOfSpans(pageText!, spans), (text) => `${text}\n`)
        : writeRecords(stream, records, (record) => `${redacted(JSON.stringify(record), hidden)}\n`);
    },
    end: async () => {},
  };
}

/** One JSON array, written as it comes: `[`, the records separated by commas, `]`. */
export function jsonWriter(stream: NodeJS.WritableStream, { secrets }: WriterOptions): RecordWriter {
  const hidden = jsonSecrets(secrets);
  let first = true;
  return {
    write: (records) =>
      writeRecords(stream, records, (record) => {
        const lead = first ? "[\n" : ",\n";
        first = false;
        return `${lead}  ${redacted(JSON.stringify(record), hidden)}`;
      }),
    end: () => write(stream, first ? "[]\n" : "\n]\n"),
  };
}

/** CSV with a header line (RFC 4180, CRLF line ends), one line per record; cells formula-safe unless `csvRaw`. */
export function csvWriter(stream: NodeJS.WritableStream, columns: readonly Column[], { secrets, csvRaw }: WriterOptions): RecordWriter {
  const cell = (value: unknown) => {
    const text = redactText(cellText(value), secrets);
    return csvRaw ? text : formulaSafe(text);
  };
  const line = (cells: readonly string[]) => `${cells.map(csvField).join(",")}\r\n`;
  let headed = false;
  const head = async () => {
    if (!headed) await write(stream, line(columns.map((column) => column.header)));
    headed = true;
  };
  return {
    async write(records) {
      await head();
      await writeRecords(stream, records, (record) => line(columns.map((column) => cell(column.get(record)))));
    },
    end: head,
  };
}

/** Longest cell of a table column, in characters (code points); longer text is cut with `…`. */
const maxCellWidth = 48;

/** Longest cell of a table's last column, in characters: a 10 MB text never makes a 10 MB line. */
const maxLastCellWidth = 200;

/**
 * An aligned table for a terminal: widths fixed by the first batch, each cell on one line (white space
 * runs made one space), sanitized (`sanitizeText`: controls, DEL and bidi controls shown as escapes)
 * and cut by characters with `…`, at `maxCellWidth`, the last column at `maxLastCellWidth`.
 */
export function tableWriter(stream: NodeJS.WritableStream, columns: readonly Column[], { secrets }: WriterOptions): RecordWriter {
  let widths: number[] | undefined;
  const cell = (value: unknown, index: number) =>
    truncateText(redactText(cellText(value), secrets).replace(/\s+/g, " "), index < columns.length - 1 ? maxCellWidth : maxLastCellWidth);
  const width = (text: string) => [...text].length;
  const line = (cells: readonly string[], at: readonly number[]) =>
    cells
      .map((text, index) => (index === cells.length - 1 ? text : text + " ".repeat(Math.max(0, (at[index] ?? 0) - width(text)))))
      .join("  ")
      .trimEnd() + "\n";
  const start = async (rows: readonly string[][]) => {
    const headers = columns.map((column) => column.header.toUpperCase());
    widths = headers.map((header, index) => Math.max(header.length, ...rows.map((row) => Math.min(width(row[index] ?? ""), maxCellWidth))));
    await write(stream, line(headers, widths));
  };
  return {
    async write(records) {
      const rows = records.map((record) => columns.map((column, index) => cell(column.get(record), index)));
      if (!widths) await start(rows);
      if (rows.length > 0) await write(stream, rows.map((row) => line(row, widths ?? [])).join(""));
    },
    end: async () => {
      if (!widths) await start([]);
    },
  };
}
