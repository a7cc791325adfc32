/**
 * The layout of `src/`: no module imports one that imports it back, types included, and the floors read top-down:
 * no module imports one of a higher floor. Read by the helper every package's layout test shares
 * (`@bot-conversation/test-support/import-graph`).
 */
import { fileURLToPath } from "node:url";
import { type Floors, floorCrossings, importCycles, importGraph, unresolvedImports, upwardImports } from "@bot-conversation/test-support/import-graph";
import { expect, test } from "vitest";

const src = fileURLToPath(new URL("../src/", import.meta.url));

test("no module of the client imports one that imports it back, even for types alone (issue 49)", () => {
  const graph = importGraph(src);
  // The graph is the real one: every import names a module that exists, and the entry point reaches the parts.
  expect(unresolvedImports(graph)).toEqual([]);
  expect(graph.get("index.ts")).toContain("client.ts");
  expect([...graph.values()].flat().length).toBeGreaterThan(40);
  expect(importCycles(graph)).toEqual([]);
});

/**
 * The floors of `src/`, highest first: the entry points of the package's three subpaths (`.`, `./text`,
 * `./command-line`); the client; what it composes (paging, the payload check); the internal helpers (checks,
 * transport, reading a response and its body checks, redaction, words); and at the bottom what every part reads
 * (the error classes, the retry rule, the port check, which import nothing). A module may import its own floor or
 * a lower one, never a higher one; a module no floor names fails the test (a new file must be placed).
 */
const floors: Floors = [
  ["index.ts", "text.ts", "command-line.ts"],
  ["client.ts"],
  ["pagination.ts", "payload.ts"],
  ["internal/"],
  ["errors.ts", "retry.ts", "port.ts"],
];

test("the floors read top-down: no module imports one of a higher floor (the client over paging and payloads over internal/ over the errors; issue 49)", () => {
  const graph = importGraph(src);
  expect(upwardImports(graph, floors)).toEqual([]);
  // The floors are the real ones: each imports the one below it.
  expect(floorCrossings(graph, floors)).toEqual(expect.arrayContaining(["0>1", "1>2", "2>3", "3>4"]));
});
