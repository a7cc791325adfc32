/**
 * The layout of `src/` (see the README's "Inside"): no module imports one that imports it back, types
 * included, and the layers read top-down: no module imports one of a higher layer. Imports are read by
 * TypeScript's own pre-processor (static, `export … from` and `import()`), through the helper every package's
 * layout test shares (`@bot-conversation/test-support/import-graph`).
 */
import { fileURLToPath } from "node:url";
import { type Floors, floorCrossings, importCycles, importGraph, unresolvedImports, upwardImports } from "@bot-conversation/test-support/import-graph";
import { expect, test } from "vitest";

const src = fileURLToPath(new URL("../src/", import.meta.url));

test("no module of the sandbox imports one that imports it back, even for types alone (issue 33)", () => {
  const graph = importGraph(src);
  // The graph is the real one: every import names a module that exists, and the entry points reach the parts.
  expect(unresolvedImports(graph)).toEqual([]);
  expect(graph.get("index.ts")).toContain("sandbox.ts");
  expect([...graph.values()].flat().length).toBeGreaterThan(80);
  expect(importCycles(graph)).toEqual([]);
});

/**
 * The layers of `src/`, highest first (issue 38): the entry points, the command line, the composition (a
 * sandbox over its store: `sandbox.ts`, `core.ts`, `workspace.ts`, `msw.ts`, and `observe/` around it), `http/`, `operations/`, then
 * `engine/` and `data/` side by side, and at the bottom what every part reads (the model, the options and
 * switches, the descriptions, JSON). A module may import its own layer or a lower one, never a higher one; a module
 * no layer names fails the test (a new root file must be placed).
 */
const layers: Floors = [
  ["index.ts", "main.ts", "bin.ts"],
  ["cli/"],
  ["sandbox.ts", "core.ts", "workspace.ts", "msw.ts", "observe/"],
  ["http/"],
  ["operations/"],
  ["engine/", "data/"],
  ["model.ts", "options.ts", "switches.ts", "description.ts", "json.ts", "node-version.ts", "generated/"],
];

test("the layers read top-down: no module imports one of a higher layer (http/ over operations/ over engine/ and data/; issue 38)", () => {
  const graph = importGraph(src);
  expect(upwardImports(graph, layers)).toEqual([]);
  // The layers are the real ones: the HTTP layer does import the operations, which import the engine and the data.
  expect(floorCrossings(graph, layers)).toEqual(expect.arrayContaining(["3>4", "4>5", "2>3", "1>2"]));
});
