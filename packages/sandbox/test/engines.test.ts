import { describe } from "vitest";
import { PlainEngine } from "../src/engine/plain.ts";
import { SearchIndex } from "../src/engine/search-index.ts";
import { searchCases } from "./support/search-cases.ts";

describe.each([
  ["the search index", (data: Parameters<typeof SearchIndex.load>[0]) => SearchIndex.load(data)],
  ["the plain reference engine", (data: Parameters<typeof PlainEngine.load>[0]) => PlainEngine.load(data)],
] as const)("search cases on %s", (_name, load) => searchCases(load));
