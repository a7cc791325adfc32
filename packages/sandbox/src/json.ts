/** JSON text read safely, and what a check of an input gives: the value, or its defects and the status to answer with. */
import type { Defect } from "./description.ts";

/** A request's input, or every defect found in it and the status to answer with. */
export type Checked<T> = { ok: true; value: T } | { ok: false; status: number; detail: string; defects: Defect[] };

/**
 * Arrays and objects nested deeper than this are refused (a 400 on every route that takes JSON, and a
 * refused fixture file): the service states no limit, so this is the sandbox's, far above what any of
 * its models needs. Without it, a payload nested thousands of levels deep overflowed the stack.
 */
export const maxJsonDepth = 64;

/** Parses JSON text `what` (e.g. "The request body"), refusing invalid JSON and nesting deeper than `maxJsonDepth`. */
export function parseJson(text: string, what: string): Checked<unknown> {
  const depth = nestingDepth(text);
  if (depth > maxJsonDepth) {
    return {
      ok: false,
      status: 400,
      detail: `${what} is nested too deeply.`,
      defects: [
        { path: "$", message: `must nest arrays and objects at most ${maxJsonDepth} levels deep (the sandbox's limit); got more than ${maxJsonDepth}` },
      ],
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, status: 400, detail: `${what} is not valid JSON.`, defects: [{ path: "$", message: `is not JSON: ${(error as Error).message}` }] };
  }
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings skipped), counted without recursion; it stops past the limit. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > deepest && (deepest = depth) > maxJsonDepth) return deepest;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}
