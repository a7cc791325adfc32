/**
 * A package's import graph, read the way TypeScript's own pre-processor reads imports (static imports, `import type`,
 * `export … from` and `import()`), and the two rules a layout test holds it to: no module imports one that imports it
 * back, and no module imports one of a higher floor. Modules are named by their path under the source folder
 * (`internal/page.ts`); a relative import written with `.js` (the published packages' style) names its `.ts` source.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** Each module of a source folder with the modules of that folder it imports, by path under the folder. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The floors of a source folder, highest first: each a list of places, a module's path (`client.ts`) or a folder
 * ending in `/` (`internal/`). A module may import its own floor or a lower one, never a higher one.
 */
export type Floors = readonly (readonly string[])[];

/** Every `.ts` module under `src` (an absolute path) with the modules under `src` it imports; other imports (packages, `node:`) are left out. */
export function importGraph(src: string): ImportGraph {
  const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
  return new Map(
    files.map((file) => [
      file.split("\\").join("/"),
      ts
        .preProcessFile(readFileSync(join(src, file), "utf8"), true, true)
        .importedFiles.map((imported) => imported.fileName)
        .filter((name) => name.startsWith(".") && /\.[jt]s$/.test(name))
        .map((name) =>
          relative(src, resolve(dirname(join(src, file)), name.replace(/\.js$/, ".ts")))
            .split("\\")
            .join("/"),
        ),
    ]),
  );
}

/** The imports of the graph that name no module of it (a wrong path, or one outside the folder), as `from -> imported`. */
export function unresolvedImports(graph: ImportGraph): string[] {
  return [...graph].flatMap(([file, imports]) => imports.filter((imported) => !graph.has(imported)).map((imported) => `${file} -> ${imported}`));
}

/** The cycles a depth-first walk meets, each as the modules along it joined by ` -> `, the first repeated last. */
export function importCycles(graph: ImportGraph): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push([...path.slice(path.indexOf(next)), next].join(" -> "));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

/** The floor of a module, 0 the highest; a module no floor names throws (a new module must be placed). */
export function floorOf(floors: Floors, file: string): number {
  const floor = floors.findIndex((places) => places.some((place) => (place.endsWith("/") ? file.startsWith(place) : file === place)));
  if (floor < 0) throw new Error(`${file} is on no floor of the layout test: place it`);
  return floor;
}

/** The imports that run up: a module importing one of a higher floor, as `from -> imported`. */
export function upwardImports(graph: ImportGraph, floors: Floors): string[] {
  return [...graph].flatMap(([file, imports]) =>
    imports.filter((imported) => floorOf(floors, imported) < floorOf(floors, file)).map((imported) => `${file} -> ${imported}`),
  );
}

/** Which floors import which, as `from>to` (floor numbers, 0 the highest): what a test checks to know its floors are the real ones. */
export function floorCrossings(graph: ImportGraph, floors: Floors): string[] {
  return [...new Set([...graph].flatMap(([file, imports]) => imports.map((imported) => `${floorOf(floors, file)}>${floorOf(floors, imported)}`)))];
}
