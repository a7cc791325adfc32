/**
 * `@bot-conversation/client/text`: what every surface of the toolkit that shows a peer's text to a
 * person calls (the CLI's tables and error lines, the conformance kit's reports), and the one token
 * redactor. A subpath of its own, so the client's main entry (its size budget) does not carry it.
 */
import { redact, redactJson } from "./internal/redact.js";
import { sanitizeText } from "./internal/sanitize.js";

export { describeValue, expectedButGot, expectedOfSchema, wrongValueText } from "./internal/describe.js";
export { type SchemaError, type SchemaProblem, type SchemaProblemOptions, schemaProblem } from "./internal/schema-problem.js";
export { redact as redactText, redactJson, sanitizeText };

/**
 * `text` sanitized (see `sanitizeText`) and cut to at most `maxCharacters` characters (code points),
 * the last of them `ellipsis` (default `…`) when anything was cut. The cut falls between characters:
 * never inside a surrogate pair (an emoji stays whole or goes) and never inside an escape (`\x1b`
 * stays whole or goes), so a cut can never leave a sequence open. `maxCharacters` is a whole number of
 * at least 1.
 */
export function truncateText(text: string, maxCharacters: number, ellipsis = "…"): string {
  if (!(Number.isSafeInteger(maxCharacters) && maxCharacters >= 1))
    throw new TypeError(`maxCharacters: expected a whole number of at least 1; got ${maxCharacters}`);
  const pieces: string[] = [];
  let length = 0;
  // for...of walks code points: a surrogate pair is one piece.
  for (const character of text) {
    const piece = sanitizeText(character);
    const size = pieceLength(piece);
    if (length + size > maxCharacters) {
      // Cut: drop pieces until the ellipsis fits too.
      const room = maxCharacters - [...ellipsis].length;
      while (pieces.length > 0 && length > room) length -= pieceLength(pieces.pop()!);
      return pieces.join("") + ellipsis;
    }
    pieces.push(piece);
    length += size;
  }
  return pieces.join("");
}

/** Characters (code points) of a piece: one for a character, the escape's length for an escape. */
const pieceLength = (piece: string): number => (piece.startsWith("\\") && piece.length > 1 ? piece.length : [...piece].length);

/**
 * The token held by the text of a token file, by the one rule of every command that reads
 * `--token-file`: the whole file, white space trimmed at both ends (a trailing line break is fine);
 * a file that holds nothing else than white space, or more than one line, is refused with a
 * `TypeError` naming `source` and never quoting the file's text. `source` names the file in messages,
 * e.g. `--token-file token.txt`.
 */
export function tokenFromFile(text: string, source: string): string {
  const token = text.trim();
  if (!token) throw new TypeError(`${source}: the file is empty; expected one line holding the access token`);
  if (/[\r\n]/.test(token))
    throw new TypeError(`${source}: the file holds ${token.split(/\r\n|\r|\n/).length} lines; expected one line holding the access token (nothing else)`);
  return token;
}
