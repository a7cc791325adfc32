import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultRevision } from "@bot-conversation/openapi/check-breaking";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMajorGuard, generatedPackages, workspaceRoot } from "../src/major-guard.ts";

let fixtures: string;
beforeAll(async () => {
  fixtures = await mkdtemp(join(tmpdir(), "bot-conversation-guard-"));
});
afterAll(async () => {
  await rm(fixtures, { recursive: true, force: true });
});

/** The current bundle with the search operation removed (a breaking change) and `info.version` set. */
async function breakingRevision(version: string): Promise<string> {
  const description = JSON.parse(await readFile(defaultRevision.replace(/\.yaml$/, ".json"), "utf8")) as {
    info: { version: string };
    paths: Record<string, unknown>;
  };
  delete description.paths["/api/v2/channels/conversations"];
  description.info.version = version;
  const path = join(fixtures, `revision-${version}.json`);
  await writeFile(path, JSON.stringify(description));
  return path;
}

/** A workspace with the two generated packages at 1.0.0, this repo's changesets config, and the given pending changeset. */
async function workspace(name: string, changeset?: string): Promise<string> {
  const root = join(fixtures, name);
  await mkdir(join(root, ".changeset"), { recursive: true });
  await writeFile(join(root, "package.json"), JSON.stringify({ name: "fixture", private: true }));
  await writeFile(join(root, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n");
  await copyFile(join(workspaceRoot, ".changeset", "config.json"), join(root, ".changeset", "config.json"));
  for (const packageName of generatedPackages) {
    const directory = join(root, "packages", packageName.replace("@bot-conversation/", ""));
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, "package.json"), JSON.stringify({ name: packageName, version: "1.0.0" }));
  }
  if (changeset !== undefined) await writeFile(join(root, ".changeset", "description-change.md"), changeset);
  return root;
}

describe("the major-version guard", () => {
  it("passes on this repository as it stands", async () => {
    const verdict = await checkMajorGuard({ workspaceRoot });
    expect(verdict.problems).toEqual([]);
    expect(verdict.ok).toBe(true);
  });

  it("fails a breaking change of the description without a major changeset, naming both packages", async () => {
    const verdict = await checkMajorGuard({ workspaceRoot: await workspace("no-changeset"), revision: await breakingRevision("2.0.0") });
    expect(verdict.ok).toBe(false);
    expect(verdict.majorChanges.length).toBeGreaterThan(0);
    expect(verdict.problems).toEqual([
      expect.stringMatching(/^@bot-conversation\/types would ship as 1\.0\.0, but the description is 2\.0\.0 and the description has \d+ breaking change/),
      expect.stringMatching(/^@bot-conversation\/client would ship as 1\.0\.0/),
    ]);
  });

  it("fails it with only a minor changeset", async () => {
    const changeset = "---\n'@bot-conversation/types': minor\n---\n\nRemoved the search.\n";
    const verdict = await checkMajorGuard({ workspaceRoot: await workspace("minor", changeset), revision: await breakingRevision("2.0.0") });
    expect(verdict.ok).toBe(false);
    expect(verdict.packages.map(({ plannedVersion }) => plannedVersion)).toEqual(["1.1.0", "1.1.0"]);
  });

  it("passes it with a major changeset, which moves both packages (one fixed group)", async () => {
    const changeset = "---\n'@bot-conversation/types': major\n---\n\nRemoved the search.\n";
    const verdict = await checkMajorGuard({ workspaceRoot: await workspace("major", changeset), revision: await breakingRevision("2.0.0") });
    expect(verdict.problems).toEqual([]);
    expect(verdict.packages.map(({ plannedVersion }) => plannedVersion)).toEqual(["2.0.0", "2.0.0"]);
  });

  it("fails a breaking change whose description keeps its major, even with a major changeset", async () => {
    const changeset = "---\n'@bot-conversation/types': major\n---\n\nRemoved the search.\n";
    const verdict = await checkMajorGuard({ workspaceRoot: await workspace("description-1", changeset), revision: await breakingRevision("1.0.0") });
    expect(verdict.ok).toBe(false);
    expect(verdict.problems).toEqual([expect.stringMatching(/^the description: \d+ breaking change\(s\) since 1\.0\.0 need a major bump of info\.version/)]);
  });
});
