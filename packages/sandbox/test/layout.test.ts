/**
 * The layout of `src/` (see the README's "Inside"): no module imports one that imports it back, types
 * included. Imports are read by TypeScript's own pre-processor (static, `export … from` and `import()`).
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
