import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, expectTypeOf, it } from "vitest";
import { decisionsTable, readEntries, readFiles, readmeWith, sandboxText, staleFiles } from "../scripts/decisions.ts";
import { type DecisionId, decisionById, decisionOfFinding, decisions, type FindingName } from "../src/decisions.ts";

const files = readFiles();
const entries = readEntries(files.yaml);

describe("decisions.yaml: the open points as data", () => {
  it("the README's Decisions tables and the generated module agree with it (pnpm --filter @bot-conversation/openapi decisions writes them)", () => {
    expect(staleFiles(files)).toEqual([]);
  });

  it("a README whose table disagrees is caught: an edited cell, a row lost, a reordered row", () => {
    const table = decisionsTable(entries);
    const rows = table.split("\n").slice(2);
    const edited = files.readme.replace(
      '| Maximum page size | "not shown" | No `maximum` | Unknown. |',
      '| Maximum page size | "not shown" | `maximum: 100` | Unknown. |',
    );
    const lost = files.readme.replace(`${rows[3]}\n`, "");
    const reordered = files.readme.replace(`${rows[3]}\n${rows[4]}\n`, `${rows[4]}\n${rows[3]}\n`);
    for (const readme of [edited, lost, reordered]) {
      expect(readme).not.toBe(files.readme);
      expect(staleFiles({ ...files, readme })).toEqual(["README.md: its Decisions tables disagree with decisions.yaml"]);
    }
    // The generator puts each back as it was.
    for (const readme of [edited, lost, reordered]) expect(readmeWith(readme, entries)).toBe(files.readme);
  });

  it("a stale generated module is caught too", () => {
    expect(staleFiles({ ...files, module: files.module.replace('"label": "Base address"', '"label": "Base URL"') })).toEqual([
      "src/decisions.generated.ts: disagrees with decisions.yaml",
    ]);
  });

  it("refuses an entry without a label, a second use of an id, and a list default given twice, naming the entry", () => {
    expect(() => readEntries("- id: a\n  label: A\n- id: a\n  label: B\n")).toThrow('decisions.yaml entry 2 (a): id "a" is used twice');
    expect(() => readEntries("- id: a\n")).toThrow("decisions.yaml entry 1 (a): label: expected a text");
    expect(() => readEntries("- id: a\n  label: A\n  sandbox:\n    flag: x\n    values: [b, c]\n    default: c\n")).toThrow(
      "sandbox.default: expected for open values only",
    );
    expect(() => readEntries("- id: a\n  label: A\n  service: s\n")).toThrow("service, decision and why: expected all three texts, or none");
  });

  it("every README row keeps its content: 53 rows of four cells, and the sandbox's 13 answers", () => {
    expect(entries.filter((entry) => entry.decision !== undefined)).toHaveLength(53);
    expect(entries.filter((entry) => entry.sandbox)).toHaveLength(13);
    expect(sandboxText(entries.find((entry) => entry.id === "search-error-statuses")!)).toBe(
      "400 for invalid parameters (`--unknown-parameters reject|ignore` for unlisted ones)",
    );
    expect(sandboxText(entries.find((entry) => entry.id === "max-page-size")!)).toBe(
      "`--max-page-size none` (or a number; larger is a 400; a number below `--default-page-size` is refused at start, or by `PUT /_sandbox/switches`, naming both: the sandbox's own default never refuses a search)",
    );
  });

  it("the module reads by id and by finding name, both checked by the compiler", () => {
    expect(decisionById("page-index-base").label).toBe("Base of `pageIndex`");
    expect(decisionOfFinding("unknown_bot_search").id).toBe("search-error-statuses");
    expect(decisions.length).toBe(entries.length);
    expectTypeOf<"page-index-base">().toExtend<DecisionId>();
    expectTypeOf<"page_index_base">().toExtend<FindingName>();
    // @ts-expect-error -- a label is not an id: a point is found by its id only.
    decisionById("Base of `pageIndex`");
  });

  it("--check exits 0 on the committed files", async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["scripts/decisions.ts", "--check"], { cwd: new URL("..", import.meta.url) });
    expect({ stdout, stderr }).toEqual({ stdout: "", stderr: "" });
  });
});
