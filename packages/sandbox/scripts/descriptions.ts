/**
 * Writes the two descriptions the sandbox checks requests against into `src/generated/`, without their
 * prose: the service's (`@bot-conversation/openapi/openapi.json`) as `service.json`, and the control
 * API's (bundled by Redocly into `sandbox-control.json`) in place. The sandbox reads schemas,
 * parameters and examples from them, never a `description` or a `summary`; in a browser they are part
 * of the page's weight (the reference and the published description keep every word).
 *
 * Run by the package's build, after `redocly bundle`: `node scripts/descriptions.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

/** Keywords that hold prose for a reader only. */
const prose = new Set(["description", "summary", "externalDocs"]);
/** Keywords whose value is data (an instance, a list of instances): copied as they are, never walked. */
const data = new Set(["example", "default", "const", "enum", "value"]);
/** Keywords whose value maps names (a property's, a schema's, a media type's…) to objects: the names are never keywords. */
const namedMaps = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "dependentSchemas",
  "paths",
  "webhooks",
  "schemas",
  "parameters",
  "responses",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "content",
  "encoding",
  "variables",
  "mapping",
]);

/** `value` without its prose keywords, at every depth where keywords stand. */
export function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (typeof value !== "object" || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (prose.has(key) && (typeof member === "string" || key === "externalDocs")) continue;
    if (data.has(key)) kept[key] = member;
    // A schema's `examples` is a list of instances; an OpenAPI object's is a map of Example Objects.
    else if (key === "examples") kept[key] = Array.isArray(member) ? member : mapValues(member);
    else if (namedMaps.has(key) && typeof member === "object" && member !== null && !Array.isArray(member)) kept[key] = mapValues(member);
    else kept[key] = withoutProse(member);
  }
  return kept;
}

function mapValues(map: unknown): unknown {
  if (typeof map !== "object" || map === null || Array.isArray(map)) return map;
  return Object.fromEntries(Object.entries(map).map(([name, member]) => [name, withoutProse(member)]));
}

if (import.meta.main) {
  const require = createRequire(import.meta.url);
  const service = JSON.parse(readFileSync(require.resolve("@bot-conversation/openapi/openapi.json"), "utf8")) as unknown;
  const controlFile = new URL("../src/generated/sandbox-control.json", import.meta.url);
  const control = JSON.parse(readFileSync(controlFile, "utf8")) as unknown;
  writeFileSync(new URL("../src/generated/service.json", import.meta.url), `${JSON.stringify(withoutProse(service))}\n`);
  writeFileSync(controlFile, `${JSON.stringify(withoutProse(control))}\n`);
}
