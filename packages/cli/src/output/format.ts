import { Option } from "commander";
import type { Column } from "./columns.js";
import { csvWriter, jsonWriter, ndjsonWriter, type RecordWriter, tableWriter, type WriterOptions } from "./writers.js";

/** The output formats. */
export const outputFormats = ["table", "json", "ndjson", "csv"] as const;

/** An output format: `table`, `json`, `ndjson` or `csv`. */
export type OutputFormat = (typeof outputFormats)[number];

/** The `--output` option. */
export function outputOption(): Option {
  return new Option("--output <format>", "output format (default: table on a terminal, ndjson when piped)").choices(outputFormats);
}

/** The columns of a command's records: a short set for a table, every field for CSV. */
export interface CommandColumns {
  /** Columns of `--output table`. */
  readonly table: readonly Column[];
  /** Columns of `--output csv`. */
  readonly csv: readonly Column[];
}

/** The `--csv-raw` option. */
export function csvRawOption(): Option {
  return new Option(
    "--csv-raw",
    "CSV cells exactly as sent; unsafe: a cell starting with = + - @ (or TAB, CR) runs as a formula when a spreadsheet opens the file (by default such a cell gets a leading ')",
  );
}

/** The writer of the chosen format; without one, a table on a terminal and NDJSON otherwise. Every format redacts `options.secrets`. */
export function recordWriter(
  format: OutputFormat | undefined,
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  columns: CommandColumns,
  options: WriterOptions,
): RecordWriter {
  switch (format ?? (stream.isTTY ? "table" : "ndjson")) {
    case "table":
      return tableWriter(stream, columns.table, options);
    case "json":
      return jsonWriter(stream, options);
    case "csv":
      return csvWriter(stream, columns.csv, options);
    default:
      return ndjsonWriter(stream, options);
  }
}
