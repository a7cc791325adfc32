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

/** One JSON object per line. */
export function ndjsonWriter(stream: NodeJS.WritableStream): RecordWriter {
  return {
    async write(records) {
      let text = "";
      for (const record of records) text += `${JSON.stringify(record)}\n`;
      if (text) await write(stream, text);
    },
    end: async () => {},
  };
}

/** One JSON array, written as it comes: `[`, the records separated by commas, `]`. */
export function jsonWriter(stream: NodeJS.WritableStream): RecordWriter {
  let first = true;
  return {
    async write(records) {
      if (records.length === 0) return;
      const text = records.map((record) => `  ${JSON.stringify(record)}`).join(",\n");
      await write(stream, `${first ? "[\n" : ",\n"}${text}`);
      first = false;
    },
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
      if (records.length > 0) await write(stream, records.map((record) => line(columns.map((column) => cellText(column.get(record))))).join(""));
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
