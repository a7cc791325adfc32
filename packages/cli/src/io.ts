import { once } from "node:events";
import { readFileSync } from "node:fs";
import { redactText, sanitizeText } from "@bot-conversation/client/text";

/** This package's version, from its package.json. */
export const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** The one exit-code table of every command (`check` and `sandbox` too): done; refused or failed; bad usage; stopped by a rate limit (`check`); stopped by Ctrl-C. */
/** Where a command reads and writes, and the one usage error (exit 2): the toolkit's, shared by every command (`check` and `sandbox` too). */
export { type CommandIo, exitCodes, UsageError } from "@bot-conversation/client/command-line";

/** Writes text, waiting for the stream to drain when its buffer is full (memory stays flat on a slow reader). */
export async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
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
