/**
 * Every relative link of every README in the repository reaches a file that exists, and a link to a
 * section (`README.md#using-the-packages-from-npm`) reaches a heading of that file, as GitHub
 * names its anchors.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";
import { workspaceRoot } from "../src/major-guard.ts";

const { stdout } = await promisify(execFile)("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*README.md"], { cwd: workspaceRoot });
const readmes = stdout
  .trim()
  .split("\n")
  .filter((path) => path !== "");

/** The anchors GitHub gives a Markdown file's headings (fenced code left out). */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```$/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slugger.slug(match[1]!.trim())));
}

/** The relative links of a Markdown file (fenced and inline code left out), as `[target, anchor]`. */
function relativeLinks(file: string): [string, string | undefined][] {
  const text = readFileSync(file, "utf8")
    .replace(/^```[\s\S]*?^```$/gm, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => {
      const [path, anchor] = target.split("#");
      return [path ?? "", anchor];
    });
}

describe("links between the READMEs", () => {
  it("finds the READMEs", () => {
    expect(readmes).toEqual(expect.arrayContaining(["README.md", "packages/client/README.md", "packages/query/README.md"]));
  });

  it.each(readmes)("%s: every relative link reaches a file, and every section link a heading", (readme) => {
    const broken: string[] = [];
    for (const [path, anchor] of relativeLinks(join(workspaceRoot, readme))) {
      const target = path === "" ? join(workspaceRoot, readme) : join(workspaceRoot, dirname(readme), path);
      if (!existsSync(target)) broken.push(`${path}: no such file`);
      else if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(target).has(anchor)) broken.push(`${path}#${anchor}: no such section`);
    }
    expect(broken).toEqual([]);
  });
});
