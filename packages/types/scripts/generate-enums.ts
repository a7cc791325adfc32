/**
 * Writes `src/generated/enums.ts`: the values of every string enumeration of the bundled OpenAPI
 * description, as readonly arrays typed by the generated schema; and `src/generated/date-time.ts`,
 * the description's one date rule (`parseDateTime`, written once in `@bot-conversation/openapi`'s
 * `src/date-time.ts`), so that the client reads it from this package without the description's Ajv.
 * Run by `pnpm build`; the test `test/generated.test.ts` fails when a committed file differs from a
 * fresh rendering.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** Where the enumeration values are written, relative to the package. */
export const enumsFile = fileURLToPath(new URL("../src/generated/enums.ts", import.meta.url));

/** Where the date rule is written, relative to the package. */
export const dateTimeFile = fileURLToPath(new URL("../src/generated/date-time.ts", import.meta.url));

/** The date rule's one source: `src/date-time.ts` of `@bot-conversation/openapi` (a file it publishes). */
const dateTimeSource = fileURLToPath(new URL("src/date-time.ts", import.meta.resolve("@bot-conversation/openapi/package.json")));

/** The date rule as this package carries it: the source, under a banner naming it. */
export async function renderDateTime(): Promise<string> {
  const source = await readFile(dateTimeSource, "utf8");
  return `// Generated from src/date-time.ts of @bot-conversation/openapi by scripts/generate-enums.ts: do not edit.\n\n${source}`;
}

/** The bundled description this package is generated from. */
export const bundleFile = fileURLToPath(import.meta.resolve("@bot-conversation/openapi/openapi.json"));

interface SchemaObject {
  readonly type?: unknown;
  readonly enum?: readonly unknown[];
}

/** `ConversationStatus` -> `conversationStatuses`, `EventName` -> `eventNames`. */
export function arrayName(schemaName: string): string {
  const camel = schemaName.charAt(0).toLowerCase() + schemaName.slice(1);
  return /(s|x|ch|sh)$/.test(camel) ? `${camel}es` : `${camel}s`;
}

/** Renders the enumeration module for a bundled OpenAPI document. */
export function renderEnums(document: { components?: { schemas?: Record<string, SchemaObject> } }): string {
  const schemas = document.components?.schemas ?? {};
  const lines = [
    "/**",
    " * This file was generated from the bundled OpenAPI description by scripts/generate-enums.ts.",
    " * Do not make direct changes to the file.",
    " */",
    "",
    'import type { components } from "./schema.js";',
    "",
  ];
  // By name, not in the bundle's order: the bundler orders components by where they are first
  // referenced, so a new parameter or schema elsewhere would reorder this committed file.
  const byName = Object.entries(schemas).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  for (const [name, schema] of byName) {
    if (schema.type !== "string" || !Array.isArray(schema.enum)) continue;
    const values = schema.enum.map((value) => JSON.stringify(value)).join(", ");
    lines.push(
      `/** Every value of \`${name}\`, in the order of the description. */`,
      `export const ${arrayName(name)} = [${values}] as const satisfies readonly components["schemas"]["${name}"][];`,
      "",
    );
  }
  return lines.join("\n");
}

/** Reads the bundle and renders the enumeration module. */
export async function renderEnumsFromBundle(): Promise<string> {
  return renderEnums(JSON.parse(await readFile(bundleFile, "utf8")));
}

if (import.meta.main) {
  await writeFile(enumsFile, await renderEnumsFromBundle());
  await writeFile(dateTimeFile, await renderDateTime());
}
