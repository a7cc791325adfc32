/**
 * The layout of `src/` (see the README's "Inside"): no module imports one that imports it back, types
 * included, and the layers read top-down: no module imports one of a higher layer. Imports are read by
 * TypeScript's own pre-processor (static, `export … from` and `import()`).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const src = fileURLToPath(new URL("../src/", import.meta.url));

/** Every module of `src/` with the modules of `src/` it imports (absolute paths). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(src, file));
  return new Map(
    files.map((file) => [
      file,
      ts
        .preProcessFile(readFileSync(file, "utf8"), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => name.startsWith(".") && name.endsWith(".ts"))
        .map((name) => resolve(dirname(file), name)),
    ]),
  );
}

/** The cycles a depth-first walk meets, each as the modules along it, first repeated last. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

test("no module of the sandbox imports one that imports it back, even for types alone (issue 33)", () => {
  const graph = importGraph();
  const imports = [...graph.values()].flat();
  // The graph is the real one: every import names a module that exists, and the entry points reach the parts.
  expect(imports.filter((file) => !existsSync(file))).toEqual([]);
  expect(graph.get(join(src, "index.ts"))).toContain(join(src, "sandbox.ts"));
  expect(imports.length).toBeGreaterThan(80);
  expect(cyclesOf(graph).map((cycle) => cycle.map((file) => relative(src, file)).join(" -> "))).toEqual([]);
});

/**
 * The layers of `src/`, highest first (issue 38): the entry points, the command line, the composition (a
 * sandbox over its store: `sandbox.ts`, `core.ts`, `workspace.ts`, `msw.ts`, and `observe/` around it), `http/`, `operations/`, then
 * `engine/` and `data/` side by side, and at the bottom what every part reads (the model, the options and
 * switches, the descriptions, JSON). A module may import its own layer or a lower one, never a higher one.
 */
const layers: readonly (readonly string[])[] = [
  ["index.ts", "main.ts", "bin.ts"],
  ["cli/"],
  ["sandbox.ts", "core.ts", "workspace.ts", "msw.ts", "observe/"],
  ["http/"],
  ["operations/"],
  ["engine/", "data/"],
  ["model.ts", "options.ts", "switches.ts", "description.ts", "json.ts", "node-version.ts", "generated/"],
];

/** The layer of a module of `src/`, 0 the highest; a module no layer names fails the test (a new root file must be placed). */
function layerOf(file: string): number {
  const path = relative(src, file);
  const layer = layers.findIndex((places) => places.some((place) => (place.endsWith("/") ? path.startsWith(place) : path === place)));
  if (layer < 0) throw new Error(`${path} is in no layer of test/layout.test.ts: place it`);
  return layer;
}

test("the layers read top-down: no module imports one of a higher layer (http/ over operations/ over engine/ and data/; issue 38)", () => {
  const graph = importGraph();
  const upward = [...graph].flatMap(([file, imports]) =>
    imports.filter((imported) => layerOf(imported) < layerOf(file)).map((imported) => `${relative(src, file)} -> ${relative(src, imported)}`),
  );
  expect(upward).toEqual([]);
  // The layers are the real ones: the HTTP layer does import the operations, which import the engine and the data.
  const crossings = new Set([...graph].flatMap(([file, imports]) => imports.map((imported) => `${layerOf(file)}>${layerOf(imported)}`)));
  expect([...crossings]).toEqual(expect.arrayContaining(["3>4", "4>5", "2>3", "1>2"]));
});
