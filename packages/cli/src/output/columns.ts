import type { Schema } from "../description.js";

/** One column of a table or a CSV file. */
export interface Column {
  /** Its header. */
  readonly header: string;
  /** Its value in a record. */
  get(record: unknown): unknown;
}

/** True for a schema of an object with fixed properties (no extra properties allowed or declared). */
function isFixedObject(schema: Schema): boolean {
  return typeof schema["properties"] === "object" && (schema["additionalProperties"] === undefined || schema["additionalProperties"] === false);
}

/** The object variant of a nullable object (`anyOf: [object, null]`), or the schema itself. */
function objectVariant(schema: Schema): Schema {
  const variants = (schema["anyOf"] ?? schema["oneOf"]) as Schema[] | undefined;
  const objects = variants?.filter((variant) => variant["type"] !== "null") ?? [];
  return objects.length === 1 && objects[0] && isFixedObject(objects[0]) ? objects[0] : schema;
}

/**
 * The CSV columns of a record schema, in the description's property order: an object with fixed
 * properties (nullable or not) becomes one column per property, named by its dotted path
 * (`channelData.platform.session.id`); everything else is one column: arrays, maps and open objects
 * hold their JSON text (`members`, `parameters`). The columns depend on the description only, never
 * on the data, so every file of one command has the same header.
 */
export function schemaColumns(schema: Schema, path: readonly string[] = []): Column[] {
  const object = objectVariant(schema);
  if (path.length > 0 && !isFixedObject(object)) {
    return [
      { header: path.join("."), get: (record) => path.reduce<unknown>((node, key) => (node as Record<string, unknown> | null | undefined)?.[key], record) },
    ];
  }
  return Object.entries(object["properties"] as Record<string, Schema>).flatMap(([key, property]) => schemaColumns(property, [...path, key]));
}

/** A value as a CSV or table cell: text as is, `null` and absent as empty, numbers and booleans in JSON, objects and arrays as JSON text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}
