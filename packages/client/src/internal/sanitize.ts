/** The one sanitizer of text from a peer (`sanitizeText`, exported by `@bot-conversation/client/text`). */

/**
 * The characters `sanitizeText` replaces: C0 controls (U+0000–U+001F, tab and line breaks included),
 * DEL (U+007F), C1 controls (U+0080–U+009F), the line and paragraph separators (U+2028, U+2029) and
 * the Unicode Bidi_Control characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which
 * reorder what a reader sees.
 */
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The visible escape of one unsafe character: `\n`, `\r`, `\t`, `\x1b` below U+0100, `\u202e` above. */
function escapeOf(character: string): string {
  const code = character.charCodeAt(0);
  if (character === "\n") return "\\n";
  if (character === "\r") return "\\r";
  if (character === "\t") return "\\t";
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Text from a peer made safe to show on one line of a terminal, a log or a page: every control
 * character, DEL, line or paragraph separator and bidi control is replaced by a visible escape in the
 * `\x1b` style (`\n`, `\r`, `\t`; `\xNN` for the others below U+0100; `\uNNNN` above). Nothing else
 * changes: a backslash already in the text stays as it is (the escapes are for reading, not for
 * decoding back), and every other character, emoji and CJK included, is kept.
 */
export function sanitizeText(text: string): string {
  return text.replace(unsafe, escapeOf);
}
