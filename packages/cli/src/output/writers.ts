import { write } from "../io.js";
import { cellText, type Column } from "./columns.js";

/** Writes records in one output format, batch by batch (a page at a time), so memory stays flat. */
export interface RecordWriter {
  /** Writes a batch of records. */
  write(records: readonly unknown[]): Promise<void>;
  /** Finishes the output (the closing bracket of a JSON array). */
  end(): Promise<void>;
}

/** A CSV field by RFC 4180: quoted when it holds a quote, a comma, or a line break; quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Characters of text written at once, at most about: a page of 500 records is written in parts, not as one string of its size. */
const writeChunk = 32 * 1024;

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

/** One JSON object per line. */
export function ndjsonWriter(stream: NodeJS.WritableStream): RecordWriter {
  return {
    write: (records) => writeRecords(stream, records, (record) => `${JSON.stringify(record)}\n`),
    end: async () => {},
  };
}

/** One JSON array, written as it comes: `[`, the records separated by commas, `]`. */
export function jsonWriter(stream: NodeJS.WritableStream): RecordWriter {
  let first = true;
  return {
    write: (records) =>
      writeRecords(stream, records, (record) => {
        const lead = first ? "[\n" : ",\n";
        first = false;
        return `${lead}  ${JSON.stringify(record)}`;
      }),
    end: () => write(stream, first ? "[]\n" : "\n]\n"),
  };
}

/** CSV with a header line (RFC 4180, CRLF line ends), one line per record. */
export function csvWriter(stream: NodeJS.WritableStream, columns: readonly Column[]): RecordWriter {
  const line = (cells: readonly string[]) => `${cells.map(csvField).join(",")}\r\n`;
  let headed = false;
  const head = async () => {
    if (!headed) await write(stream, line(columns.map((column) => column.header)));
    headed = true;
  };
  return {
    async write(records) {
      await head();
      await writeRecords(stream, records, (record) => line(columns.map((column) => cellText(column.get(record)))));
    },
    end: head,
  };
}

/** Longest cell of a table column, in characters; longer text is cut with `…`. */
const maxCellWidth = 48;

/** An aligned table for a terminal: widths fixed by the first batch, cells on one line, each but the last cut at `maxCellWidth`. */
export function tableWriter(stream: NodeJS.WritableStream, columns: readonly Column[]): RecordWriter {
  let widths: number[] | undefined;
  const cell = (value: unknown, index: number) => {
    const text = cellText(value).replace(/\s+/g, " ");
    return text.length > maxCellWidth && index < columns.length - 1 ? `${text.slice(0, maxCellWidth - 1)}…` : text;
  };
  const line = (cells: readonly string[], at: readonly number[]) =>
    cells.map((text, index) => (index === cells.length - 1 ? text : text.padEnd(at[index] ?? 0))).join("  ").trimEnd() + "\n";
  const start = async (rows: readonly string[][]) => {
    const headers = columns.map((column) => column.header.toUpperCase());
    widths = headers.map((header, index) => Math.max(header.length, ...rows.map((row) => Math.min((row[index] ?? "").length, maxCellWidth))));
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
