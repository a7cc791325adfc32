/**
 * The size of an MCP result: the structured content is sent once (the text content is a short
 * summary), and kept within `maxResultBytes` of JSON so that a host's client (the official SDK's holds
 * a message to 10 MiB) never drops the connection over one large conversation. Our choices:
 */

/** Longest string of a result, in characters: a longer one is cut, with a note of how much was left out. */
export const maxStringCharacters = 4_000;

/** Largest structured result, in bytes of JSON: 256 KiB. */
export const maxResultBytes = 256 * 1024;

/** `text` cut to `maxStringCharacters`, never inside a surrogate pair, with what was left out said at its end. */
function cutString(text: string): string {
  if (text.length <= maxStringCharacters) return text;
  let end = maxStringCharacters;
  // A high surrogate at the cut would leave half a character.
  if (/[\ud800-\udbff]/.test(text[end - 1] ?? "")) end -= 1;
  return `${text.slice(0, end)}… [cut: ${text.length - end} more characters; the whole record: bot-conversation search --output ndjson]`;
}

/** A JSON value with every string cut to `maxStringCharacters`, at any depth. */
const cutStrings = (value: unknown): unknown =>
  typeof value === "string"
    ? cutString(value)
    : Array.isArray(value)
      ? value.map(cutStrings)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, cutStrings(entry)]))
        : value;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/**
 * A result within the limits: long strings cut, then, while it is over `maxResultBytes`, the last
 * entries of its list (`list`: `items` or `triggers`) left out, with `truncated` saying how many and
 * how to get them (`howToGetTheRest`, given the count kept).
 */
export function limitResult(result: Record<string, unknown>, list: string | undefined, howToGetTheRest: (kept: number) => string): Record<string, unknown> {
  const limited = cutStrings(result) as Record<string, unknown>;
  const entries = list ? limited[list] : undefined;
  if (!Array.isArray(entries) || bytesOf(limited) <= maxResultBytes) return limited;
  // Each entry is at most about maxStringCharacters per string, so dropping from the end converges quickly.
  let kept = entries.length;
  let size = bytesOf(limited);
  while (kept > 0 && size > maxResultBytes - 1024) size -= bytesOf(entries[--kept]) + 1;
  return {
    ...limited,
    [list!]: entries.slice(0, kept),
    truncated: {
      kept,
      omitted: entries.length - kept,
      note: `${entries.length - kept} of ${entries.length} ${list} left out to keep the result within ${maxResultBytes} bytes. ${howToGetTheRest(kept)}`,
    },
  };
}
