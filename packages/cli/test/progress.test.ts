import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { exportProgress } from "../src/output/progress.ts";

/** A terminal's stderr: everything written to it, in order. */
function terminal(): Writable & { isTTY: true; columns: number; written: string } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stream.written += chunk.toString();
      done();
    },
  }) as Writable & { isTTY: true; columns: number; written: string };
  Object.assign(stream, { isTTY: true, columns: 120, written: "" });
  return stream;
}

describe("the export's progress bar", () => {
  it("its first frame says the estimate is not known yet, never ETA 0s", async () => {
    const stderr = terminal();
    const progress = await exportProgress(stderr, { isTTY: false });
    progress.update(100, 60_000);
    progress.stop();
    const firstFrame = stderr.written.split("\n")[0]!;
    expect(firstFrame).toContain("100/60000 conversations");
    expect(firstFrame).toContain("ETA …");
    expect(stderr.written).not.toContain("ETA 0s");
  });

  it("nothing on stderr when it is not a terminal, or when the records go to the terminal", async () => {
    for (const [stderrIsTerminal, stdoutIsTerminal] of [
      [false, false],
      [true, true],
    ] as const) {
      const stderr = terminal();
      Object.assign(stderr, { isTTY: stderrIsTerminal });
      const progress = await exportProgress(stderr, { isTTY: stdoutIsTerminal });
      progress.update(100, 60_000);
      progress.stop();
      expect(stderr.written).toBe("");
    }
  });
});
