import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { lintPackage, type PackageLintReport } from "./lint-package.ts";

/** The workspace's root, whose LICENSE every published package carries. */
const workspaceRoot = new URL("../../../", import.meta.url);

/**
 * Packs a package as it would be published and asserts what every published package must be: the
 * files given are in the tarball, publint (and, for a package of modules, Are the Types Wrong) find
 * nothing, and its LICENSE is the repository's. Returns the report for further checks.
 */
export async function expectPublishable(packageDir: string, files: readonly string[], { types = true }: { types?: boolean } = {}): Promise<PackageLintReport> {
  const report = await lintPackage(packageDir, { types });
  expect(report.files).toEqual(expect.arrayContaining([...files, "LICENSE"]));
  expect(report.publint).toEqual([]);
  expect(report.attw).toEqual([]);
  expect(await readFile(join(packageDir, "LICENSE"), "utf8")).toBe(await readFile(new URL("LICENSE", workspaceRoot), "utf8"));
  return report;
}
