/**
 * `pnpm bench`: runs every benchmark in turn, writes bench/RESULTS.md, and exits non-zero when a
 * budget is not met. Not part of `pnpm test`; no test asserts a time.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { autoPager } from "./pager.ts";
import { buildTimes } from "./build.ts";
import { clientSize } from "./size.ts";
import { conformanceRun } from "./conformance.ts";
import { docsSite } from "./docs.ts";
import { docsWeight } from "./docs-weight.ts";
import { mockServer } from "./mock.ts";
import { payloadValidation } from "./payload.ts";
import { perCallOverhead } from "./per-call.ts";
import { renderResults, type Section } from "./report.ts";

const benchmarks: [string, () => Promise<Section>][] = [
  ["per-call overhead", perCallOverhead],
  ["auto-pager", autoPager],
  ["client size", clientSize],
  ["payload validation", payloadValidation],
  ["Prism mock", mockServer],
  ["build", buildTimes],
  ["API reference site", docsSite],
  ["API reference first visit", docsWeight],
  ["conformance kit", conformanceRun],
];

const sections: Section[] = [];
for (const [name, benchmark] of benchmarks) {
  console.log(`bench: ${name}…`);
  sections.push(await benchmark());
}
const resultsPath = fileURLToPath(new URL("../RESULTS.md", import.meta.url));
writeFileSync(resultsPath, renderResults(sections));
const missed = sections.flatMap((section) => section.budgets).filter((budget) => !budget.ok);
for (const budget of missed) console.error(`bench: budget not met: ${budget.name} (${budget.detail})`);
console.log(`bench: wrote ${resultsPath}; ${missed.length === 0 ? "every budget met" : `${missed.length} budget(s) not met`}`);
process.exitCode = missed.length === 0 ? 0 : 1;
