/** How the built command starts: Node's compile cache kept in the system's temporary folder, unless turned off. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { runBin } from "./support/cli.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

it.each([
  ["kept in the temporary folder's node-compile-cache", {}, true],
  ["none with NODE_DISABLE_COMPILE_CACHE=1", { NODE_DISABLE_COMPILE_CACHE: "1" }, false],
])("the compile cache: %s", async (_how, env, kept) => {
  const temporary = mkdtempSync(join(tmpdir(), "cli-start-"));
  folders.push(temporary);
  const run = await runBin(["--version"], { TMPDIR: temporary, ...env });
  expect(run.code).toBe(0);
  const cache = join(temporary, "node-compile-cache");
  expect(existsSync(cache)).toBe(kept);
  if (kept) expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(1);
});
