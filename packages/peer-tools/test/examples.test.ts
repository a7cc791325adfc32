import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { ZodType } from "zod";
import * as zodSchemas from "../generated/orval/zod-schemas.ts";
import { bundlePath } from "../src/paths.ts";

/** The parts of the bundle this test reads. */
interface Bundle {
  tags: { description?: string }[];
  components: { examples: Record<string, { value: unknown }> };
}
const bundle: Bundle = parse(readFileSync(bundlePath, "utf8"));

const schemaPrefix = "#/components/schemas/";
const examplePrefix = "#/components/examples/";

/** Each named example with the schema it illustrates: from media types (`schema` beside `examples`) and model pages (`schemaDefinition … exampleRef`). */
function examplesWithSchemas(node: unknown, found = new Map<string, Set<string>>()): Map<string, Set<string>> {
  if (Array.isArray(node)) for (const item of node) examplesWithSchemas(item, found);
  else if (node !== null && typeof node === "object") {
    const { schema, examples } = node as { schema?: { $ref?: string }; examples?: Record<string, { $ref?: string }> };
    if (schema?.$ref?.startsWith(schemaPrefix) && examples && typeof examples === "object") {
      for (const example of Object.values(examples)) {
        if (example.$ref?.startsWith(examplePrefix)) add(found, example.$ref.slice(examplePrefix.length), schema.$ref.slice(schemaPrefix.length));
      }
    }
    for (const value of Object.values(node)) examplesWithSchemas(value, found);
  }
  return found;
}

/** Adds one pairing of an example with a schema. */
function add(found: Map<string, Set<string>>, example: string, schema: string): void {
  found.set(example, (found.get(example) ?? new Set()).add(schema));
}

const pairs = examplesWithSchemas(bundle);
for (const tag of bundle.tags) {
  for (const match of tag.description?.matchAll(/schemaRef="#\/components\/schemas\/(\w+)" exampleRef="#\/components\/examples\/(\w+)"/g) ?? []) {
    add(pairs, match[2] ?? "", match[1] ?? "");
  }
}
const cases = [...pairs].flatMap(([example, schemas]) => [...schemas].map((schema) => ({ example, schema })));

describe("every named example parses with orval's zod schemas", () => {
  it("covers every example under components.examples", () => {
    expect([...pairs.keys()].sort()).toEqual(Object.keys(bundle.components.examples).sort());
  });

  it.each(cases)("$example is a valid $schema", ({ example, schema }) => {
    const zodSchema = (zodSchemas as unknown as Record<string, ZodType | undefined>)[schema];
    expect(zodSchema, `orval generated no zod schema named ${schema}`).toBeDefined();
    const result = zodSchema?.safeParse(bundle.components.examples[example]?.value);
    expect(result?.error?.issues ?? []).toEqual([]);
  });
});
