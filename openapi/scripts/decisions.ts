/**
 * The open points as data: reads `decisions.yaml`, checks it, and generates from it the two Decisions
 * tables of `README.md` and the module `src/decisions.generated.ts` that the sandbox and the kit read;
 * with them, the rule catalog `rules.yaml` into `src/rules.generated.ts` (`scripts/rules.ts`).
 *
 *   node scripts/decisions.ts          writes both (after an edit of decisions.yaml)
 *   node scripts/decisions.ts --check  fails, naming what differs, when either is stale
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { readRules, rulePaths, rulesModule } from "./rules.ts";

const here = (path: string): URL => new URL(`../${path}`, import.meta.url);

/** Where the generated files live, relative to the package. */
export const paths = { yaml: "decisions.yaml", readme: "README.md", module: "src/decisions.generated.ts" } as const;

/** The marker before each generated table. */
export const marker =
  "<!-- Generated from decisions.yaml by scripts/decisions.ts (pnpm --filter @bot-conversation/openapi decisions): do not edit the table. -->";

/** An entry of `decisions.yaml`, as written (see its header). */
export interface DecisionEntry {
  readonly id: string;
  readonly label: string;
  readonly service?: string;
  readonly decision?: string;
  readonly why?: string;
  readonly sandbox?: {
    readonly flag?: string;
    readonly values?: readonly string[] | string;
    readonly default?: string;
    readonly note?: string;
    readonly text?: string;
  };
  readonly findings?: readonly string[];
}

const openValues = ["positive integer", "positive integer or none", "text"];

/** Reads and checks the entries: every problem names the entry and the field. */
export function readEntries(text: string): DecisionEntry[] {
  const entries = parse(text) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${paths.yaml}: expected a list of entries`);
  const problems: string[] = [];
  const seen = { id: new Set<string>(), label: new Set<string>(), flag: new Set<string>(), finding: new Set<string>() };
  const once = (kind: keyof typeof seen, value: string, where: string) => {
    if (seen[kind].has(value)) problems.push(`${where}: ${kind} ${JSON.stringify(value)} is used twice`);
    seen[kind].add(value);
  };
  entries.forEach((entry: DecisionEntry, index) => {
    const where = `${paths.yaml} entry ${index + 1} (${entry?.id ?? "no id"})`;
    if (typeof entry?.id !== "string" || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(entry.id)) problems.push(`${where}: id: expected kebab case`);
    else once("id", entry.id, where);
    if (typeof entry?.label !== "string" || !entry.label) problems.push(`${where}: label: expected a text`);
    else once("label", entry.label, where);
    const columns = [entry.service, entry.decision, entry.why];
    if (columns.some((column) => column !== undefined) && !columns.every((column) => typeof column === "string" && column.length > 0)) {
      problems.push(`${where}: service, decision and why: expected all three texts, or none (no row in the Decisions table)`);
    }
    const { sandbox } = entry;
    if (sandbox) {
      if (sandbox.flag !== undefined) {
        once("flag", sandbox.flag, where);
        const listed = Array.isArray(sandbox.values);
        if (!listed && !openValues.includes(sandbox.values as string))
          problems.push(`${where}: sandbox.values: expected a list, or one of ${openValues.join(", ")}`);
        if (listed === (sandbox.default !== undefined))
          problems.push(`${where}: sandbox.default: expected for open values only (a list's default is its first value)`);
        if (sandbox.text !== undefined && !sandbox.text.includes("{switch}")) problems.push(`${where}: sandbox.text: expected {switch} where the switch goes`);
      } else if (typeof sandbox.text !== "string") problems.push(`${where}: sandbox: expected a flag or a text`);
    }
    for (const finding of entry.findings ?? []) {
      if (!/^[a-z]+(_[a-z]+)*$/.test(finding)) problems.push(`${where}: findings: ${JSON.stringify(finding)} is not a finding name (snake case)`);
      once("finding", finding, where);
    }
  });
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return entries as DecisionEntry[];
}

/** A table cell: a `|` escaped. */
const cell = (text: string): string => text.replaceAll("|", "\\|");

/** The sandbox's answer to a point, as the README's switch table says it. */
export function sandboxText(entry: DecisionEntry): string | undefined {
  const { sandbox } = entry;
  if (!sandbox) return undefined;
  if (sandbox.flag === undefined) return sandbox.text;
  const values = Array.isArray(sandbox.values) ? sandbox.values.join("|") : sandbox.default;
  const code = `\`--${sandbox.flag} ${values}\``;
  return sandbox.text !== undefined ? sandbox.text.replace("{switch}", code) : `${code}${sandbox.note ?? ""}`;
}

/** The Decisions table: a row per entry with a decision. */
export function decisionsTable(entries: readonly DecisionEntry[]): string {
  const rows = entries
    .filter((entry) => entry.decision !== undefined)
    .map((entry) => `| ${[entry.label, entry.service!, entry.decision!, entry.why!].map(cell).join(" | ")} |`);
  return ["| Point | What the service says | What the description does | Why |", "|---|---|---|---|", ...rows].join("\n");
}

/** The sandbox's table: a row per entry the sandbox answers. */
export function sandboxTable(entries: readonly DecisionEntry[]): string {
  const rows = entries.filter((entry) => entry.sandbox).map((entry) => `| ${cell(entry.label)} | ${cell(sandboxText(entry)!)} |`);
  return ["| Point (row above) | Sandbox switch, default first |", "|---|---|", ...rows].join("\n");
}

/** The README with its two generated tables (the first and the second marker) replaced. */
export function readmeWith(readme: string, entries: readonly DecisionEntry[]): string {
  const tables = [decisionsTable(entries), sandboxTable(entries)];
  const lines = readme.split("\n");
  const markers = lines.flatMap((line, index) => (line === marker ? [index] : []));
  if (markers.length !== tables.length) throw new Error(`${paths.readme}: expected ${tables.length} lines ${marker}; found ${markers.length}`);
  // From the last marker back, so earlier indexes stay right.
  for (const [position, start] of [...markers.entries()].reverse()) {
    let end = start + 1;
    while (lines[end]?.startsWith("|")) end += 1;
    lines.splice(start + 1, end - start - 1, ...tables[position]!.split("\n"));
  }
  return lines.join("\n");
}

/** The module the packages read (`@bot-conversation/openapi`'s `decisions`). */
export function generatedModule(entries: readonly DecisionEntry[]): string {
  return [
    "// Generated from decisions.yaml by scripts/decisions.ts (pnpm --filter @bot-conversation/openapi decisions): do not edit.",
    "",
    "/** Every open point and what the toolkit decides, in the order of decisions.yaml. */",
    `export const decisions = ${JSON.stringify(entries, null, 2)} as const;`,
    "",
    "/** The points the sandbox answers with a switch, with only what it reads (id, label, flag, values, default): a page that bundles the sandbox carries none of the decisions' prose. */",
    `export const sandboxAnswers = ${JSON.stringify(
      entries
        .filter((entry) => entry.sandbox?.flag !== undefined)
        .map(({ id, label, sandbox }) => ({
          id,
          label,
          sandbox: { flag: sandbox!.flag!, values: sandbox!.values!, ...(sandbox!.default === undefined ? {} : { default: sandbox!.default }) },
        })),
      null,
      2,
    )} as const;`,
    "",
  ].join("\n");
}

/** What differs between the files and what `decisions.yaml` generates: an empty list when all agree. */
export function staleFiles(files: { yaml: string; readme: string; module: string }): string[] {
  const entries = readEntries(files.yaml);
  return [
    ...(readmeWith(files.readme, entries) === files.readme ? [] : [`${paths.readme}: its Decisions tables disagree with ${paths.yaml}`]),
    ...(generatedModule(entries) === files.module ? [] : [`${paths.module}: disagrees with ${paths.yaml}`]),
  ];
}

/** The three files as they are. */
export function readFiles(): { yaml: string; readme: string; module: string } {
  const read = (path: string): string => {
    try {
      return readFileSync(here(path), "utf8");
    } catch {
      return "";
    }
  };
  return { yaml: read(paths.yaml), readme: read(paths.readme), module: read(paths.module) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = readFiles();
  const rulesYaml = readFileSync(here(rulePaths.yaml), "utf8");
  const rulesGenerated = rulesModule(readRules(rulesYaml));
  if (process.argv.includes("--check")) {
    const stale = staleFiles(files);
    if (readFileSync(here(rulePaths.module), "utf8") !== rulesGenerated) stale.push(`${rulePaths.module}: disagrees with ${rulePaths.yaml}`);
    for (const line of stale) console.error(`${line}: run pnpm --filter @bot-conversation/openapi decisions`);
    process.exitCode = stale.length > 0 ? 1 : 0;
  } else {
    const entries = readEntries(files.yaml);
    writeFileSync(here(paths.readme), readmeWith(files.readme, entries));
    writeFileSync(here(paths.module), generatedModule(entries));
    writeFileSync(here(rulePaths.module), rulesGenerated);
  }
}
