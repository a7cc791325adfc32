/**
 * `pnpm bench`: runs every benchmark in turn, writes bench/RESULTS.md, and exits non-zero when a
 * budget is not met. Not part of `pnpm test`; no test asserts a time.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { beforeAndAfter } from "./before-after.ts";
import { browserSandbox } from "./browser-sandbox.ts";
import { buildTimes } from "./build.ts";
import { cliExport } from "./cli.ts";
import { conformanceRun } from "./conformance.ts";
import { conformanceSlowServer } from "./conformance-slow.ts";
import { docsSite } from "./docs.ts";
import { docsWeight } from "./docs-weight.ts";
import { installToFirstRequest } from "./install.ts";
import { mockServer } from "./mock.ts";
import { autoPager } from "./pager.ts";
import { payloadValidation } from "./payload.ts";
import { perCallOverhead } from "./per-call.ts";
import { recorderBenchmark } from "./recorder.ts";
import { renderResults, type Section } from "./report.ts";
import { sandboxServer } from "./sandbox.ts";
import { sandboxData } from "./sandbox-data.ts";
import { sandboxObserve } from "./sandbox-observe.ts";
import { sharedSandbox } from "./shared-sandbox.ts";
import { clientSize } from "./size.ts";

// `--before <tree>`: an earlier commit's worktree, built, for the before-and-after comparison; the other words filter.
const { values: options, positionals: only } = parseArgs({ options: { before: { type: "string" } }, allowPositionals: true });

const benchmarks: [string, () => Promise<Section>][] = [
  ["per-call overhead", perCallOverhead],
  ["auto-pager", autoPager],
  ["client size", clientSize],
  ["payload validation", payloadValidation],
  ["Prism mock", mockServer],
  ["sandbox", sandboxServer],
  ["sandbox with --data", sandboxData],
  ["sandbox search: logs and metrics", () => sandboxObserve(options.before)],
  ["sandbox in the browser", browserSandbox],
  ["shared sandbox on PostgreSQL", sharedSandbox],
  ["build", buildTimes],
  ["API reference site", docsSite],
  ["API reference first visit", docsWeight],
  ["conformance kit", conformanceRun],
  ["conformance kit, slow server", conformanceSlowServer],
  ["install to first request", installToFirstRequest],
  ["CLI export", cliExport],
  ["recorder", recorderBenchmark],
  ["before and after", () => beforeAndAfter(options.before)],
];

// `pnpm bench -- per-call sandbox` runs only the benchmarks whose names contain one of the words (a word
// that is a whole name, as `sandbox`, chooses that benchmark alone), and prints their tables instead of
// rewriting RESULTS.md (which always holds a whole run).
const names = new Set(benchmarks.map(([name]) => name));
const chosen = benchmarks.filter(([name]) => only.length === 0 || only.some((word) => (names.has(word) ? name === word : name.includes(word))));
if (chosen.length === 0) throw new Error(`bench: no benchmark matches ${only.join(", ")}; the names are: ${benchmarks.map(([name]) => name).join(", ")}`);

const sections: Section[] = [];
for (const [name, benchmark] of chosen) {
  console.log(`bench: ${name}…`);
  sections.push(await benchmark());
}
const missed = sections.flatMap((section) => section.budgets).filter((budget) => !budget.ok);
for (const budget of missed) console.error(`bench: budget not met: ${budget.name} (${budget.detail})`);
const summary = missed.length === 0 ? "every budget met" : `${missed.length} budget(s) not met`;
if (only.length === 0) {
  const resultsPath = fileURLToPath(new URL("../RESULTS.md", import.meta.url));
  writeFileSync(resultsPath, renderResults(sections));
  console.log(`bench: wrote ${resultsPath}; ${summary}`);
} else {
  console.log(renderResults(sections));
  console.log(`bench: ${chosen.length} of ${benchmarks.length} benchmarks (RESULTS.md left as it was); ${summary}`);
}
process.exitCode = missed.length === 0 ? 0 : 1;
