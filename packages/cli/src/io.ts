import { once } from "node:events";
import { readFileSync, writeSync } from "node:fs";
import { Writable } from "node:stream";
import { redactText, sanitizeText } from "@bot-conversation/client/text";

/** This package's version, from its package.json. */
export const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** The one exit-code table of every command (`check` and `sandbox` too): done; refused or failed; bad usage; stopped by a rate limit (`check`); stopped by Ctrl-C. */
/** Where a command reads and writes, and the one usage error (exit 2): the toolkit's, shared by every command (`check` and `sandbox` too). */
export { type CommandIo, exitCodes, UsageError } from "@bot-conversation/client/command-line";

/** Writes text (or bytes), waiting for the stream to drain when its buffer is full (memory stays flat on a slow reader). */
export async function write(stream: NodeJS.WritableStream, chunk: string | Uint8Array): Promise<void> {
  if (!stream.write(chunk)) await once(stream, "drain");
}

/**
 * Output into an open regular file (standard output redirected, `> conversations.ndjson`): each chunk is written
 * with `writeSync` before `write` returns, text as it is (Node's stream for a file would first copy each part into a
 * Buffer, which made a long export's memory grow). So a chunk is never kept: a writer may fill a buffer it gave
 * again at once (the NDJSON export does, `ndjsonWriter`).
 */
export class FileOutput extends Writable {
  /** Writes to the open file `fd` (standard output is 1). */
  constructor(fd: number) {
    super({
      decodeStrings: false,
      write(chunk: string | Uint8Array, encoding: BufferEncoding, callback: (error?: Error | null) => void) {
        try {
          if (typeof chunk === "string") writeSync(fd, chunk, null, encoding);
          else writeSync(fd, chunk);
        } catch (error) {
          callback(error as Error);
          return;
        }
        callback();
      },
    });
  }
}

/**
 * The message of an error as one line to show a person: every secret replaced by `[redacted]` (the
 * client's redactor), line breaks joined with `; `, and every other control character, DEL or bidi
 * control shown as a visible escape (`sanitizeText`): a trigger id or a service's detail cannot act on the terminal.
 */
export function oneLine(error: unknown, secrets: readonly string[]): string {
  const text = error instanceof Error ? error.message : String(error);
  return sanitizeText(
    redactText(text, secrets)
      .replace(/\s*[\r\n]\s*/g, "; ")
      .trim(),
  );
}
