import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const run = promisify(execFile);
const attwBin = fileURLToPath(new URL("../node_modules/.bin/attw", import.meta.url));

/** What publint and attw said about a packed package, and which files the tarball holds. */
export interface PackageLintReport {
  /** Paths inside the tarball, relative to its `package/` folder. */
  readonly files: string[];
  /** publint messages at every level (errors, warnings and suggestions), formatted. */
  readonly publint: string[];
  /** attw problems under the `esm-only` profile (the package ships ESM only, by design). */
  readonly attw: { resolutionKind?: string }[];
}

/**
 * Packs the package with pnpm (as it would be published), then runs publint and attw on the tarball;
 * `{ types: false }` for a package of data files only (no module, so nothing for attw to resolve); in a
 * package of both, attw judges the module subpaths and leaves out those of data files.
 */
export async function lintPackage(packageDir: string, { types = true }: { types?: boolean } = {}): Promise<PackageLintReport> {
  const destination = await mkdtemp(join(tmpdir(), "bot-conversation-pack-"));
  try {
    const { stdout } = await run("pnpm", ["pack", "--json", "--pack-destination", destination], { cwd: packageDir });
    const packed = JSON.parse(stdout) as { filename: string; files: { path: string }[] };
    const tarball = await readFile(packed.filename);
    const pkg = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as Record<string, unknown>;
    const linted = await publint({ pack: { tarball: new Uint8Array(tarball).buffer }, level: "suggestion", strict: true });
    // attw exits non-zero when the profile finds a problem; its JSON report lists problems of every
    // resolution mode, so keep only those the esm-only profile counts (it skips node10 and node16-cjs).
    const files = packed.files.map((file) => file.path);
    const publintMessages = linted.messages.map((message) => formatMessage(message, pkg) ?? message.code);
    if (!types) return { files, publint: publintMessages, attw: [] };
    // Subpaths of data files (a bundled description, an Arazzo file) have no types to resolve: attw judges the modules only.
    const exportsMap = ((pkg["publishConfig"] as { exports?: unknown } | undefined)?.exports ?? pkg["exports"]) as Record<string, unknown> | undefined;
    const dataEntrypoints = Object.entries(exportsMap ?? {})
      .filter(([, target]) => typeof target === "string" && !/\.m?js$/.test(target))
      .map(([subpath]) => subpath);
    const exclude = dataEntrypoints.length > 0 ? ["--exclude-entrypoints", ...dataEntrypoints] : [];
    const attw = await run(attwBin, [packed.filename, "--profile", "esm-only", "--format", "json", ...exclude], {
      cwd: packageDir,
    }).catch((error: { stdout: string }) => error);
    const attwReport = JSON.parse(attw.stdout) as { analysis: { problems: { resolutionKind?: string }[] } };
    return {
      files,
      publint: publintMessages,
      attw: attwReport.analysis.problems.filter((problem) => problem.resolutionKind !== "node10" && problem.resolutionKind !== "node16-cjs"),
    };
  } finally {
    await rm(destination, { recursive: true, force: true });
  }
}
