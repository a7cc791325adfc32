import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { workspaceRoot } from "./major-guard.ts";
import { publicPackages } from "./packages.ts";

const run = promisify(execFile);

/**
 * The command the root README gives for packing every public package (after `pnpm build`): pnpm
 * rewrites `workspace:` and `catalog:` versions to real ones in each tarball, so npm installs them
 * anywhere.
 */
export function packCommand(destination: string): string[] {
  return ["pnpm", ...publicPackages.flatMap((name) => ["--filter", name]), "pack", "--pack-destination", destination];
}

/**
 * Options for `npm install` in a project outside the workspace. npm asks the registry for our
 * packages' names though the tarballs are given (a 404 it takes in its stride); where the registry or
 * a proxy fails those requests instead, they are retried at once, not after 10 s and then a minute
 * each (npm's defaults), which once held an install for 9 minutes.
 */
export const npmInstallOptions = [
  "--no-audit",
  "--no-fund",
  "--prefer-offline",
  "--loglevel=error",
  "--fetch-retry-mintimeout=100",
  "--fetch-retry-maxtimeout=1000",
];

/** Runs `packCommand` from the workspace root and returns the absolute paths of the tarballs it wrote. */
export async function packPublishedPackages(destination: string): Promise<string[]> {
  const [command, ...args] = packCommand(destination);
  await run(command!, args, { cwd: workspaceRoot });
  const tarballs = (await readdir(destination)).filter((name) => name.endsWith(".tgz"));
  return tarballs.sort().map((name) => join(destination, name));
}
