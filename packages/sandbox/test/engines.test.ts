import { describe } from "vitest";
import { PlainEngine } from "../src/engine/plain.ts";
import { Store } from "../src/engine/store.ts";
import { searchCases } from "./support/search-cases.ts";

describe.each([
  ["the store", (data: Parameters<typeof Store.load>[0]) => Store.load(data)],
  ["the plain reference engine", (data: Parameters<typeof PlainEngine.load>[0]) => PlainEngine.load(data)],
] as const)("search cases on %s", (_name, load) => searchCases(load));
