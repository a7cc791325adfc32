/**
 * Where each element of one array of a JSON object's text stands, e.g. the records of a search page's
 * `items`, and their text cut out of the text as it was read, without parsing it again. A scan that jumps over
 * strings with `indexOf` (the bulk of a page is text), counting only the brackets between them; when
 * no brace of the text stands inside a string (`bracesAreJson`, counted as the elements are found), the
 * array's elements are cut from brace to brace alone.
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

/** How many objects a parsed JSON value holds, itself included (a loop, not a recursion: any depth the parser took). */
export function objectCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) {
      for (let index = 0; index < next.length; index++) {
        const element: unknown = next[index];
        if (typeof element === "object" && element !== null) pending.push(element);
      }
    } else if (typeof next === "object" && next !== null) {
      count++;
      // A parsed object's keys are all its own (checked in `bracesAreJson`: nothing enumerable is inherited).
      for (const name in next) {
        const member: unknown = (next as Record<string, unknown>)[name];
        if (typeof member === "object" && member !== null) pending.push(member);
      }
    }
  }
  return count;
}

/** How many times `character` occurs in `text`. */
function occurrences(text: string, character: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count++;
  return count;
}

/**
 * Whether every `{` and `}` of a JSON text is one of its objects' own, none inside a string: so when
 * each occurs exactly `objects` times (`opens` and `closes`), the number of objects the text was parsed
 * into (`objectCount`). The text holds a brace for each object it was parsed into at least; a brace inside
 * a string, or an object a repeated key replaced, only adds to its count.
 */
export function bracesAreJson(opens: number, closes: number, objects: number): boolean {
  // An enumerable property inherited by every object would be counted by `objectCount`'s `for…in`.
  for (const _ in {}) return false;
  return opens === objects && closes === objects;
}

/** The first index at or after `at` that is not JSON white space (or the text's length). */
function skipSpace(text: string, at: number): number {
  while (at < text.length && text.charCodeAt(at) <= 32) at++;
  return at;
}

/** The braces `objectsByBraces` passed: `{` and `}`. */
interface Braces {
  opens: number;
  closes: number;
}

/**
 * The elements of an array whose text starts at `at` (after its `[`), each an object, found from brace to
 * brace: right when every brace of the text is JSON's own (`bracesAreJson`), so an element ends at the
 * `}` that closes as many braces as opened since its `{`, whatever its strings hold. Each element's start
 * and end (after its `}`) are added to `spans`, and every brace passed, from the first element's `{` to the
 * last one's `}`, to `braces`. The index of the array's `]`; -1 when an element is not an object or the
 * text ends first.
 */
function objectsByBraces(text: string, at: number, spans: number[], braces: Braces): number {
  at = skipSpace(text, at);
  if (text.charCodeAt(at) === closeBracket) return at;
  // The next `{` and `}` not yet counted.
  let open = at;
  let close = text.indexOf("}", at);
  for (;;) {
    if (text.charCodeAt(at) !== openBrace) return -1;
    let depth = 0;
    let end = -1;
    while (end === -1) {
      if (open !== -1 && open < close) {
        depth++;
        braces.opens++;
        open = text.indexOf("{", open + 1);
      } else if (close === -1) {
        return -1;
      } else {
        if (--depth === 0) end = close;
        braces.closes++;
        close = text.indexOf("}", close + 1);
      }
    }
    spans.push(at, end + 1);
    at = skipSpace(text, end + 1);
    const code = text.charCodeAt(at);
    if (code === closeBracket) return at;
    if (code !== comma) return -1;
    at = skipSpace(text, at + 1);
  }
}

/**
 * Where each element of the array under `key` in the top-level object of `text` stands, each an object
 * (`{…}`, as it stands in the text), in order: its start and its end (after its `}`), one pair after the
 * other; `undefined` when the text is not one object holding that key once, its value an array of objects
 * (the caller then serialises the parsed value instead). The text is trusted to be JSON (it was parsed
 * already): only its layout is read here. Given `objects`, the number of objects the text was parsed into
 * (`objectCount`), the array's elements are first found from brace to brace, and kept when every brace of
 * the text proves JSON's own (`bracesAreJson`: those passed, and those before and after the array, counted);
 * otherwise, and without `objects`, the array is scanned string by string. The rest of the text is scanned.
 */
export function objectSpansOfArray(text: string, key: string, objects?: number): number[] | undefined {
  const quotedKey = JSON.stringify(key);
  const spans: number[] = [];
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
        if (objects !== undefined) {
          const braces = { opens: 0, closes: 0 };
          const end = objectsByBraces(text, next + 1, spans, braces);
          // Before the array and after it (the envelope's own, and any in its strings), the braces are few.
          const before = text.slice(0, next);
          const after = end === -1 ? "" : text.slice(end);
          const opens = braces.opens + occurrences(before, "{") + occurrences(after, "{");
          const closes = braces.closes + occurrences(before, "}") + occurrences(after, "}");
          // The loop goes on at the array's `]`, which ends it; or, a brace in a string, scans the array from its `[`.
          if (end !== -1 && bracesAreJson(opens, closes, objects)) at = end - 1;
          else spans.length = 0;
        }
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
      if (inside && depth === 3) spans.push(start, at + 1);
      if (inside && depth === 2) inside = false;
      depth--;
    } else if (inside && depth === 2 && code !== comma && code > 32) {
      // Between the elements only commas and white space: anything else is an element that is not an object.
      return undefined;
    }
  }
  return found && !inside && depth === 0 ? spans : undefined;
}

/** The text at each of `spans` (start and end, one pair after the other) of `text`. */
export function textsOfSpans(text: string, spans: readonly number[]): string[] {
  const texts: string[] = [];
  for (let at = 0; at < spans.length; at += 2) texts.push(text.slice(spans[at], spans[at + 1]));
  return texts;
}

/** The text of each element of the array under `key` (`objectSpansOfArray`), cut out of `text`; `undefined` as there. */
export function objectsOfArray(text: string, key: string, objects?: number): string[] | undefined {
  const spans = objectSpansOfArray(text, key, objects);
  return spans && textsOfSpans(text, spans);
}
