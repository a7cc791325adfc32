/**
 * The recorder's memory at rest: it loads the conformance kit (its checks judge every exchange), and with it the
 * kit's generators, which must cost nothing until the kit draws a value. fast-check's strings of any code point
 * map all of Unicode back when they are made (about 80 MiB of heap, kept): made at load, the recorder's heap at
 * rest was about 100 MiB, and its peak over a 100,000-conversation export went past its 400 MiB budget.
 * Measured in a process of its own (Node with `--expose-gc`), the built recorder imported, then a full collection.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const recorderModule = fileURLToPath(new URL("../dist/record/recorder.js", import.meta.url));

/** The heap in use (MiB) of a fresh Node process after importing `module` and a full collection. */
async function heapAfterImport(module: string): Promise<number> {
  const script = `await import(${JSON.stringify(module)}); globalThis.gc(); process.stdout.write(String(process.memoryUsage().heapUsed / 2 ** 20));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--input-type=module", "--eval", script]);
  return Number(stdout);
}

describe("the recorder at rest", () => {
  it("holds under 48 MiB of heap once loaded, the kit's checks with it: no generator's table is built before its first draw", async () => {
    const heap = await heapAfterImport(recorderModule);
    expect(heap).toBeGreaterThan(0);
    // About 20 MiB now; about 100 MiB when the kit's text of any code point was made at load.
    expect(heap).toBeLessThan(48);
  });
});
