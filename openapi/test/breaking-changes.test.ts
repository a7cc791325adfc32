import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { checkBreakingChanges, defaultBaseline, defaultRevision } from "../scripts/check-breaking.js";

type Document = { info: { version: string }; paths: Record<string, Record<string, { parameters?: unknown[] }>> };

const scratch = mkdtempSync(join(tmpdir(), "openapi-diff-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a changed copy of the released baseline and returns its path. */
function revisionOf(name: string, change: (document: Document) => void): string {
  const document = parse(readFileSync(defaultBaseline, "utf8")) as Document;
  change(document);
  const path = join(scratch, `${name}.yaml`);
  writeFileSync(path, stringify(document));
  return path;
}

const removeFireOperation = (document: Document): void => {
  delete document.paths["/api/v1/runtime/simple/external/events"];
};

describe("breaking-change guard", () => {
  it("passes the current description against the released baseline", () => {
    const verdict = checkBreakingChanges(defaultBaseline, defaultRevision);
    expect(verdict.majorChanges, verdict.reason).toEqual([]);
    expect(verdict.ok).toBe(true);
  });

  it("fails a removed operation without a major bump, naming the change", () => {
    const verdict = checkBreakingChanges(defaultBaseline, revisionOf("removed", removeFireOperation));
    expect(verdict.ok).toBe(false);
    expect(verdict.majorChanges.join("\n")).toContain("/api/v1/runtime/simple/external/events");
  });

  it("passes the same removal once info.version has a new major", () => {
    const revision = revisionOf("removed-2.0.0", (document) => {
      removeFireOperation(document);
      document.info.version = "2.0.0";
    });
    expect(checkBreakingChanges(defaultBaseline, revision).ok).toBe(true);
  });

  it("passes an added optional parameter without a major bump", () => {
    const revision = revisionOf("added", (document) => {
      document.paths["/api/v2/channels/conversations"]!["get"]!.parameters!.push({
        name: "locale",
        in: "query",
        required: false,
        description: "A new optional filter.",
        schema: { type: "string" },
      });
    });
    const verdict = checkBreakingChanges(defaultBaseline, revision);
    expect(verdict.ok).toBe(true);
    expect(verdict.summary.minor + verdict.summary.patch).toBeGreaterThan(0);
  });
});
