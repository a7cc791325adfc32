import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { redocly, redoclyConfig } from "../scripts/redocly.js";

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

function lint(target: string): LintReport {
  const { stdout } = redocly("lint", target, "--config", redoclyConfig, "--format", "json");
  return JSON.parse(stdout) as LintReport;
}

const sources = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "openapi-lint-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Copies the split description to a scratch folder, applies one edit to one file, and lints the copy. */
function lintWithEdit(name: string, file: string, edit: (text: string) => string): LintReport {
  const copy = join(scratch, name);
  cpSync(sources, copy, { recursive: true, filter: (path) => !/node_modules|dist|test-results/.test(path) });
  const target = join(copy, file);
  const before = readFileSync(target, "utf8");
  const after = edit(before);
  expect(after, `the edit of ${file} must change it`).not.toBe(before);
  writeFileSync(target, after);
  return lint(join(copy, "openapi.yaml"));
}

describe("redocly lint", () => {
  it("reports no error and no warning on the description", () => {
    const report = lint("bot-conversation@v1");
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it.each([
    [
      "an invalid example",
      "no-invalid-media-type-examples",
      "components/examples/FireNumberVariable.yaml",
      (text: string) => text.replace("orderTotal: 149.9", "orderTotal: [149.9]"),
    ],
    [
      "a missing example",
      "rule/media-type-has-examples",
      "paths/channels_conversations.yaml",
      (text: string) => text.replace(/ {10}examples:\n( {12}\w+:\n {14}\$ref: .*\n)+/, ""),
    ],
    [
      "an example without a summary",
      "rule/example-has-summary",
      "components/examples/FireBooleanVariable.yaml",
      (text: string) => text.replace(/^summary: .*\n/, ""),
    ],
    [
      "a parameter without an example",
      "rule/parameter-has-example",
      "components/parameters/PageSize.yaml",
      (text: string) => text.replace(/^example: .*\n/m, ""),
    ],
    ["an undeclared tag", "operation-tag-defined", "paths/channels_conversations.yaml", (text: string) => text.replace("- Conversations", "- Chats")],
    [
      "an unused component",
      "no-unused-components",
      "openapi.yaml",
      (text: string) =>
        text.replace(
          "components:\n",
          "components:\n  parameters:\n    Unused:\n      name: unused\n      in: query\n      description: Not used.\n      schema:\n        type: string\n      example: x\n",
        ),
    ],
  ])("raises %s to an error (%s)", (name, ruleId, file, edit) => {
    const report = lintWithEdit(name.replaceAll(" ", "-"), file, edit);
    expect(report.problems.filter((problem) => problem.ruleId === ruleId).map((problem) => problem.severity)).toContain("error");
  });
});

describe("redocly score", () => {
  // 84.9 since variable values became an anyOf (issue 11): correct generated types come first. The
  // floor keeps later changes from lowering it unnoticed; openapi/README.md (Score) explains.
  it("rates the description's Agent Readiness at 84.9 or more", () => {
    const { stdout } = redocly("score", "bot-conversation@v1", "--config", redoclyConfig, "--format", "json");
    const { agentReadiness } = JSON.parse(stdout) as { agentReadiness: number };
    console.log(`Agent Readiness: ${agentReadiness}/100`);
    expect(agentReadiness).toBeGreaterThanOrEqual(84.9);
  });
});
