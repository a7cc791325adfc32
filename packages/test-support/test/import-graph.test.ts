/** The import-graph reader every layout test shares, on a small source folder written for each case. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { type Floors, floorCrossings, floorOf, importCycles, importGraph, unresolvedImports, upwardImports } from "../src/import-graph.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A source folder holding the files given (path under it -> text). */
function sourceFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), "import-graph-"));
  folders.push(folder);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

test("reads every form of import (static, type-only, re-export, dynamic), written with .ts or .js, and leaves packages out", () => {
  const src = sourceFolder({
    "index.ts": 'export { client } from "./client.js";\nexport type { Options } from "./internal/options.ts";\n',
    "client.ts":
      'import pg from "pg";\nimport { readFileSync } from "node:fs";\nimport type { Options } from "./internal/options.js";\nexport const client = () => import("./lazy.ts");\n',
    "lazy.ts": "export const lazy = 1;\n",
    "internal/options.ts": 'import { lazy } from "../lazy.js";\nexport type Options = { lazy: typeof lazy };\n',
    "types.d.ts": 'import "./client.js";\n',
  });
  expect(Object.fromEntries(importGraph(src))).toEqual({
    "index.ts": ["client.ts", "internal/options.ts"],
    "client.ts": ["internal/options.ts", "lazy.ts"],
    "lazy.ts": [],
    "internal/options.ts": ["lazy.ts"],
  });
  expect(unresolvedImports(importGraph(src))).toEqual([]);
});

test("names an import of no module, and each cycle with its modules in order (a type-only import included)", () => {
  const src = sourceFolder({
    "a.ts": 'import { b } from "./b.js";\nimport "./gone.js";\nexport const a = b;\n',
    "b.ts": 'import type { C } from "./internal/c.js";\nexport const b = 1;\n',
    "internal/c.ts": 'import { a } from "../a.js";\nexport type C = typeof a;\n',
    "d.ts": 'import { d2 } from "./d2.js";\nexport const d = 1;\n',
    "d2.ts": 'import { d } from "./d.js";\nexport const d2 = d;\n',
    "e.ts": 'import { a } from "./a.js";\nexport const e = a;\n',
  });
  const graph = importGraph(src);
  expect(unresolvedImports(graph)).toEqual(["a.ts -> gone.ts"]);
  expect(importCycles(graph).sort()).toEqual(["a.ts -> b.ts -> internal/c.ts -> a.ts", "d.ts -> d2.ts -> d.ts"]);
});

test("an import of a higher floor is named; one of the same floor or a lower one is not; a module on no floor throws", () => {
  const src = sourceFolder({
    "index.ts": 'import { client } from "./client.js";\nexport { client };\n',
    "client.ts": 'import { check } from "./internal/check.js";\nimport { other } from "./other.js";\nexport const client = check + other;\n',
    "other.ts": "export const other = 1;\n",
    "internal/check.ts": 'import { client } from "../client.js";\nimport { errors } from "../errors.js";\nexport const check = errors;\nvoid client;\n',
    "errors.ts": "export const errors = 1;\n",
  });
  const graph = importGraph(src);
  const floors: Floors = [["index.ts"], ["client.ts", "other.ts"], ["internal/"], ["errors.ts"]];
  expect(upwardImports(graph, floors)).toEqual(["internal/check.ts -> client.ts"]);
  expect(floorCrossings(graph, floors).sort()).toEqual(["0>1", "1>1", "1>2", "2>1", "2>3"]);
  expect(floorOf(floors, "internal/deep/x.ts")).toBe(2);
  expect(() => upwardImports(graph, [["index.ts"], ["client.ts", "other.ts"], ["internal/"]])).toThrow("errors.ts is on no floor of the layout test: place it");
});
