/** A `--fixture` file (issue 38): one too large to be a fixture is refused before it is read, naming the file and the limit. */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { createSandbox } from "../src/index.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-fixture-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("a fixture file of 700 MiB is refused before it is read, naming the file, its size and the limit", async () => {
  const path = join(scratch, "huge.json");
  writeFileSync(path, "");
  // Sparse: no disk is used, and reading it would take 700 MiB of memory.
  truncateSync(path, 700 * 1024 * 1024);
  await expect(createSandbox({ fixture: path })).rejects.toThrow(
    `${path} is 700 MiB, larger than a fixture may be (at most 256 MiB, the sandbox's limit, as for PUT /_sandbox/fixture)`,
  );
});
