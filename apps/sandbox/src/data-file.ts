import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from "node:fs";
import type { FiredEventRecord, FiredEventsKeeper } from "./journal.ts";
import type { DataSource } from "./store.ts";

/** Layout version of a `--data` file; a file of another layout (an older sandbox's SQLite database included) is refused. */
export const dataLayout = 4;

/** What a `--data` file holds: where the data came from (a seed, or a whole fixture) and the journal of fired events. */
export interface KeptData {
  /** The data's source: loading it again gives the same data. */
  readonly source: DataSource;
  /** The fired events, oldest first. */
  readonly events: FiredEventRecord[];
}

/**
 * Reads a `--data` file: `undefined` when it does not exist or is empty. The file is JSON lines: a
 * header with the layout and the data's source, then one line per fired event or clearing of the
 * journal. A last line without its newline was never acknowledged (the answer follows the write), so
 * it is left out.
 */
export function readDataFile(path: string): KeptData | undefined {
  if (!existsSync(path)) return undefined;
  const bytes = readFileSync(path);
  if (bytes.length === 0) return undefined;
  if (bytes.subarray(0, 16).toString("latin1") === "SQLite format 3\u0000") {
    // An older sandbox kept a SQLite database; its layout version is the header's user_version (offset 60).
    throw new Error(`${path} holds a sandbox database of another layout (version ${bytes.readUInt32BE(60)}, expected ${dataLayout}); start with a new --data file`);
  }
  const lines = bytes.toString("utf8").split("\n");
  if (lines.at(-1) !== "") lines.pop();
  const [headerLine, ...rest] = lines.filter((line) => line !== "");
  const header = parse(path, headerLine ?? "", 1) as { "bot-conversation-sandbox"?: unknown; source?: DataSource };
  if (header["bot-conversation-sandbox"] !== dataLayout || header.source === undefined) {
    throw new Error(`${path} holds a sandbox database of another layout (version ${JSON.stringify(header["bot-conversation-sandbox"] ?? null)}, expected ${dataLayout}); start with a new --data file`);
  }
  let events: FiredEventRecord[] = [];
  rest.forEach((line, index) => {
    const entry = parse(path, line, index + 2) as { fired?: FiredEventRecord; cleared?: true };
    if (entry.cleared) events = [];
    else if (entry.fired) events.push(entry.fired);
  });
  return { source: header.source, events };
}

function parse(path: string, line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`${path}: line ${number} is not JSON; the file is not a sandbox --data file, or it was edited`);
  }
}

/** Keeps the data's source and every fired event in a `--data` file, each written before it is acknowledged. */
export class DataFileKeeper implements FiredEventsKeeper {
  readonly #path: string;
  #descriptor: number | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  /** The data was replaced: the file is rewritten whole (through a temporary file, so a crash leaves the old or the new). */
  replaced(source: DataSource): void {
    this.close();
    const temporary = `${this.#path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ "bot-conversation-sandbox": dataLayout, source })}\n`);
    renameSync(temporary, this.#path);
  }

  /** An accepted event, appended in one write. */
  fired(event: FiredEventRecord): void {
    this.#append({ fired: event });
  }

  /** The journal was cleared. */
  cleared(): void {
    this.#append({ cleared: true });
  }

  /** Closes the file (every write is already in it). */
  close(): void {
    if (this.#descriptor !== undefined) closeSync(this.#descriptor);
    this.#descriptor = undefined;
  }

  #append(entry: unknown): void {
    this.#descriptor ??= openSync(this.#path, "a");
    writeSync(this.#descriptor, `${JSON.stringify(entry)}\n`);
  }
}
