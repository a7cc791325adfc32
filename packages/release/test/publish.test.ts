import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { workspaceRoot } from "../src/major-guard.ts";
import { publicPackages } from "../src/packages.ts";

const run = promisify(execFile);

/** The package.json fields these tests read. */
interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  repository?: { type: string; url: string; directory?: string };
  exports?: Record<string, unknown>;
  files?: string[];
  publishConfig?: { access?: string };
}

async function manifest(directory: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(workspaceRoot, directory, "package.json"), "utf8")) as Manifest;
}

/** Every workspace package that is not private, with its folder. */
async function publishedPackages(): Promise<{ directory: string; manifest: Manifest }[]> {
  const groups = ["packages", "apps"];
  const directories = [
    "openapi",
    "bench",
    ...(await Promise.all(groups.map(async (group) => (await readdir(join(workspaceRoot, group))).map((name) => `${group}/${name}`)))).flat(),
  ];
  const all = await Promise.all(directories.map(async (directory) => ({ directory, manifest: await manifest(directory).catch(() => undefined) })));
  return all.flatMap(({ directory, manifest }) => (manifest && !manifest.private ? [{ directory, manifest }] : []));
}

describe("publishing", () => {
  it("publishes exactly the public packages; every other workspace package is private", async () => {
    expect((await publishedPackages()).map(({ manifest }) => manifest.name).sort()).toEqual([...publicPackages].sort());
  });

  it("gives each published package honest metadata: the license with its text, no made-up repository, built entries", async () => {
    const root = await manifest(".");
    // The project has no public repository yet: `repository` and `homepage` are absent rather than invented.
    expect(root.repository).toBeUndefined();
    const licenseText = await readFile(join(workspaceRoot, "LICENSE"), "utf8");
    for (const { directory, manifest: published } of await publishedPackages()) {
      expect(published.license).toBe(root.license);
      expect(published.repository).toBeUndefined();
      expect(await readFile(join(workspaceRoot, directory, "LICENSE"), "utf8")).toBe(licenseText);
      if (published.name !== "@bot-conversation/openapi") {
        expect(published.exports?.["."]).toEqual({ types: "./dist/index.d.ts", default: "./dist/index.js" });
        expect(published.files).toContain("dist");
      }
      expect(published.publishConfig?.access).toBe("public");
    }
  });

  it("passes pnpm publish -r --dry-run", async () => {
    // --no-git-checks: tests run on any branch and in a working tree with changes; the rest is the real publish path.
    const { stdout } = await run("pnpm", ["publish", "-r", "--dry-run", "--no-git-checks"], { cwd: workspaceRoot });
    for (const { manifest: published } of await publishedPackages()) expect(stdout).toContain(`+ ${published.name}@${published.version}`);
  });
});
