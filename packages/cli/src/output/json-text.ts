/**
 * The text of each element of one array of a JSON object's text, e.g. the records of a search page's
 * `items`, cut out of the text as it was read, without parsing it again. A scan that jumps over
 * strings with `indexOf` (the bulk of a page is text), counting only the brackets between them.
 */

const quote = 34;
const backslash = 92;
const colon = 58;
const openBrace = 123;
const openBracket = 91;
const closeBrace = 125;
const closeBracket = 93;
const comma = 44;

/** Where the string that starts at `start` (its opening quote) ends: the index of its closing quote, -1 when it does not end. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1) {
    // A quote after an odd number of backslashes is escaped: part of the string.
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === backslash) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * The text of each element of the array under `key` in the top-level object of `text`, each an object
 * (`{…}`, as it stands in the text), in order; `undefined` when the text is not one object holding that
 * key once, its value an array of objects (the caller then serialises the parsed value instead).
 * The text is trusted to be JSON (it was parsed already): only its layout is read here.
 */
export function objectsOfArray(text: string, key: string): string[] | undefined {
  const quotedKey = JSON.stringify(key);
  const elements: string[] = [];
  let depth = 0;
  let found = false;
  // Whether the scan is inside the array under `key`; the start of the element being read.
  let inside = false;
  let start = -1;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === quote) {
      // A string among the elements: an element that is not an object.
      if (inside && depth === 2) return undefined;
      const end = stringEnd(text, at);
      if (end === -1) return undefined;
      if (depth === 1 && end - at + 1 === quotedKey.length && text.startsWith(quotedKey, at)) {
        // A key of the top-level object (a string at depth 1 followed by a colon): the array starts after it.
        let next = end + 1;
        while (next < text.length && text.charCodeAt(next) !== colon) next++;
        next++;
        while (next < text.length && text.charCodeAt(next) <= 32) next++;
        // The key twice (the parser kept the last), or a value that is not an array: not this fast path.
        if (found || text.charCodeAt(next) !== openBracket) return undefined;
        found = true;
        inside = true;
        depth = 2;
        at = next;
        continue;
      }
      at = end;
    } else if (code === openBrace || code === openBracket) {
      depth++;
      if (inside && depth === 3) {
        if (code !== openBrace) return undefined;
        start = at;
      }
    } else if (code === closeBrace || code === closeBracket) {
      if (inside && depth === 3) elements.push(text.slice(start, at + 1));
      if (inside && depth === 2) inside = false;
      depth--;
    } else if (inside && depth === 2 && code !== comma && code > 32) {
      // Between the elements only commas and white space: anything else is an element that is not an object.
      return undefined;
    }
  }
  return found && !inside && depth === 0 ? elements : undefined;
}
