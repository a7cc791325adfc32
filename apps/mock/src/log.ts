import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { createHinter } from "./hints.ts";

/** Copies Prism's log, line by line, to `output`, with a hint after each answer about the description (see `hints.ts`). */
export function forwardLog(prismOutput: Readable, output: Writable): void {
  const hintFor = createHinter();
  createInterface({ input: prismOutput, crlfDelay: Infinity }).on("line", (line) => {
    output.write(`${line}\n`);
    const hint = hintFor(line);
    if (hint !== undefined) output.write(`${hint}\n`);
  });
}
