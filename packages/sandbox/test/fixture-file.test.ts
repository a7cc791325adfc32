/** A `--fixture` file (issues 38 and 52): one too large to be a fixture is refused by its size before it is read, in one line naming the flag, the file, its size and the limit. */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { oversizedFixtureFile } from "../src/cli/command.ts";
import { maxFixtureBytes } from "../src/data/fixture.ts";
import { createSandbox, LaunchError, launchSandbox } from "../src/index.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-fixture-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("a fixture file of 700 MiB is refused before it is read, naming the file, its size and the limit", async () => {
  const path = join(scratch, "huge.json");
  writeFileSync(path, "");
  // Sparse: no disk is used, and reading it would take 700 MiB of memory.
  truncateSync(path, 700 * 1024 * 1024);
  await expect(createSandbox({ fixture: path })).rejects.toThrow(
    `${path} is 700 MiB (734003200 bytes), larger than a fixture may be (at most 256 MiB, the sandbox's limit, as for PUT /_sandbox/fixture)`,
  );
});

test("the command refuses it in one line naming the flag, the file, its size and the limit (exit 2), before it reads or serves anything", async () => {
  const path = join(scratch, "huge-for-the-command.json");
  writeFileSync(path, "");
  truncateSync(path, 700 * 1024 * 1024);
  const refused = await launchSandbox(["--fixture", path]).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(LaunchError);
  expect((refused as LaunchError).code).toBe(2);
  expect((refused as LaunchError).output).toBe(
    `error: --fixture: ${path} is 700 MiB (734003200 bytes), larger than a fixture may be (at most 256 MiB, the sandbox's limit, as for PUT /_sandbox/fixture)\n`,
  );
});

test("the bound is the limit itself: a file of exactly 256 MiB passes the size check, one byte more does not", async () => {
  const path = join(scratch, "at-the-limit.json");
  writeFileSync(path, "");
  truncateSync(path, maxFixtureBytes);
  expect(await oversizedFixtureFile(path)).toBeUndefined();
  truncateSync(path, maxFixtureBytes + 1);
  expect(await oversizedFixtureFile(path)).toMatch(/is 257 MiB \(268435457 bytes\)/);
});
