/**
 * The journal: `exchanges.ndjson`, one line per completed exchange, appended as each one completes, so a
 * recorder killed at any moment keeps every exchange it answered. Every other file of a recording is
 * derived from it (`derive.ts`). A line is written only after its secrets are removed where they stand
 * (`redact.ts`) and end users' words pseudonymised: the journal is as safe to keep as every other file.
 */
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { type ExchangeBody, type ExchangeRecord, exchangeBodyText } from "@bot-conversation/sandbox";
import type { RecordedExchange } from "./exchange.js";

/** The journal's file name inside a recording's folder. */
export const journalName = "exchanges.ndjson";

/** A body as the journal keeps it: the sandbox's `ExchangeBody` (parsed JSON, text, base64, or none). */
export type JournalBody = ExchangeBody;

/** One line of the journal: the sandbox's `ExchangeRecord`, which its exact replay (`--exchanges`) reads. */
export type JournalEntry = ExchangeRecord;

/** A journal entry as every reader of a recording takes it (the validator, the open points, the entities). */
export function exchangeOfEntry(entry: JournalEntry): RecordedExchange {
  const headers = new Headers();
  for (const [name, value] of entry.response.headers) headers.append(name, value);
  const requestBody = entry.request.body;
  const body = entry.response.body;
  return {
    method: entry.request.method,
    path: entry.request.path,
    query: entry.request.query,
    hasRequestBody: Object.keys(requestBody).length > 0,
    requestJson: "json" in requestBody ? requestBody.json : undefined,
    status: entry.response.status,
    headers,
    text: exchangeBodyText(body),
    json: "json" in body ? body.json : undefined,
    isJson: "json" in body,
    invalidUtf8: "base64" in body,
  };
}

/** The journal of a folder, open for appending: one write per line, so a line is whole or absent after a kill. */
export class JournalWriter {
  readonly #descriptor: number;

  /** Opens (or creates, mode 0600) `path` for appending; a symbolic link there is refused (`O_NOFOLLOW`). */
  constructor(path: string) {
    this.#descriptor = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    // A line cut by a power loss (no newline at the end) is closed, so the next line stays a line of its own.
    const size = fstatSync(this.#descriptor).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      const reader = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        readSync(reader, last, 0, 1, size - 1);
      } finally {
        closeSync(reader);
      }
      if (last[0] !== 0x0a) writeSync(this.#descriptor, "\n");
    }
  }

  /** Appends one entry as one line. */
  append(entry: JournalEntry): void {
    writeSync(this.#descriptor, `${JSON.stringify(entry)}\n`);
  }

  /** Closes the file. */
  close(): void {
    closeSync(this.#descriptor);
  }
}

/** Reads a journal line by line: each entry, or for a line that is not one (a line cut by a power loss), its number. */
export async function* readJournal(path: string): AsyncGenerator<{ readonly entry: JournalEntry } | { readonly badLine: number }> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    let number = 0;
    for await (const line of file.readLines()) {
      number += 1;
      if (line.trim() === "") continue;
      let entry: JournalEntry | undefined;
      try {
        entry = JSON.parse(line) as JournalEntry;
      } catch {
        entry = undefined;
      }
      if (entry && typeof entry.request?.method === "string" && typeof entry.response?.status === "number") yield { entry };
      else yield { badLine: number };
    }
  } finally {
    await file.close();
  }
}
