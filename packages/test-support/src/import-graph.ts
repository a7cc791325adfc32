/**
 * A package's import graph, read by TypeScript's own pre-processor (static imports, `export … from` and
 * `import()`, types included), and the cycles in it: what a layout test holds a package's house to.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

/** Every module of `src` (a folder, absolute) with the modules of `src` it imports (absolute paths). */
export function importGraph(src: string): Map<string, string[]> {
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

/** The cycles a depth-first walk of `graph` meets, each as the modules along it, the first repeated last. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): void => {
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
