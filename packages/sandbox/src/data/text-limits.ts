/**
 * Text the sandbox's stores cannot keep: PostgreSQL's `text` and `jsonb` refuse U+0000 (NUL), and an unpaired
 * surrogate (U+D800 to U+DFFF alone) is not Unicode text at all (written as UTF-8 it silently becomes U+FFFD).
 * One rule for every route and every mode (in memory, `--data`, PostgreSQL), applied where input comes in
 * (every JSON body, every query parameter, a workspace's name in a path), so such a value is a 400 naming its
 * field before any store sees it, never a 500 or a 503 that sending it again cannot cure. Our choice: the
 * service's own reading of such text is not shown.
 */
import { appendJsonPath, type Defect } from "../description.ts";

/** NUL, or a surrogate not part of a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this rule finds.
const unholdable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be kept as text, as a defect's message, or `undefined` when it can. */
export function unholdableText(value: string): string | undefined {
  const found = unholdable.exec(value);
  if (found === null) return undefined;
  return found[0] === "\u0000"
    ? `must not contain U+0000 (NUL) (at character ${found.index}), which the sandbox cannot keep as text`
    : `must not contain an unpaired surrogate (U+${found[0].charCodeAt(0).toString(16).toUpperCase()} at character ${found.index}), which is not Unicode text`;
}

/**
 * Whether JSON text may hold such a string: they can only be written as `\u` escapes (a NUL or a lone surrogate
 * never comes out of decoding UTF-8), so most bodies are passed by one scan of their text.
 */
function mayHoldUnholdable(json: string): boolean {
  return /\\u(0000|[dD][89a-fA-F])/.test(json);
}

/** Every string (and object key) of a parsed JSON value that cannot be kept as text, each named by its JSON path from `root`. */
export function unholdableTextDefects(value: unknown, root = "$"): Defect[] {
  const defects: Defect[] = [];
  const visit = (item: unknown, path: string) => {
    if (typeof item === "string") {
      const message = unholdableText(item);
      if (message) defects.push({ path, message });
    } else if (Array.isArray(item)) {
      for (const [index, entry] of item.entries()) visit(entry, `${path}[${index}]`);
    } else if (typeof item === "object" && item !== null) {
      for (const [key, entry] of Object.entries(item)) {
        const keyMessage = unholdableText(key);
        if (keyMessage) defects.push({ path, message: `has a property name that ${keyMessage.replace(/^must not contain/, "contains")}` });
        visit(entry, appendJsonPath(path, key));
      }
    }
  };
  visit(value, root);
  return defects;
}

/** The defects of a JSON body read from `json` whose parsed value is `value` (none for most bodies, told by one scan of the text). */
export function unholdableJsonDefects(json: string, value: unknown): Defect[] {
  return mayHoldUnholdable(json) ? unholdableTextDefects(value) : [];
}
