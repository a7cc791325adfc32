/**
 * The kit's house (issue 48, item 7): no module of `src/` imports one that imports it back, types included, and
 * no import runs back up: the judging parts (the checks, the model, the relations, the generators) import no
 * phase, session, runner, report or entry point; the phases import no runner, report or entry point.
 */
import { fileURLToPath } from "node:url";
import { importCycles, importGraph, unresolvedImports } from "@bot-conversation/test-support/import-graph";
import { expect, test } from "vitest";

/** The kit's modules by their path under `src/`, each with those it imports (test-support's one reader). */
const graph = importGraph(fileURLToPath(new URL("../src/", import.meta.url)));

test("no module of the kit imports one that imports it back, even for types alone", () => {
  const imports = [...graph.values()].flat();
  // The graph is the real one: every import names a module that exists, and the entry point reaches the runner.
  expect(unresolvedImports(graph)).toEqual([]);
  expect(graph.get("index.ts")).toContain("runner.ts");
  expect(imports.length).toBeGreaterThan(100);
  expect(importCycles(graph)).toEqual([]);
});

/** Modules of a layer may import nothing of the layers above it. */
const above: ReadonlyArray<{ layer: (file: string) => boolean; forbidden: (file: string) => boolean; what: string }> = [
  {
    what: "the judging parts (checks/, model.ts, relations.ts, consistency.ts, generate.ts, variable-values.ts) import no phase, session, runner, report or entry point",
    layer: (file) => file.startsWith("checks/") || ["model.ts", "relations.ts", "consistency.ts", "generate.ts", "variable-values.ts"].includes(file),
    forbidden: (file) =>
      file.startsWith("phases/") || file.startsWith("report/") || ["session.ts", "runner.ts", "index.ts", "command.ts", "check.ts"].includes(file),
  },
  {
    what: "the phases import no runner, report or entry point",
    layer: (file) => file.startsWith("phases/"),
    forbidden: (file) => file.startsWith("report/") || ["runner.ts", "index.ts", "command.ts", "check.ts"].includes(file),
  },
];

test.each(above)("$what", ({ layer, forbidden }) => {
  const upward = [...graph].flatMap(([file, imports]) =>
    layer(file) ? imports.filter((imported) => forbidden(imported)).map((imported) => `${file} -> ${imported}`) : [],
  );
  expect(upward).toEqual([]);
});
