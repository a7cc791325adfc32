/**
 * Docs-only changes to the description that make the viewer's search find what the reference
 * shows, with readable snippets. The viewer indexes descriptions by joining their text pieces with
 * nothing between them, so a line break inside a paragraph ran two words together ("each" +
 * "trigger" → "eachtrigger"); and it does not index the fields of a model page.
 */

import { resolveReference } from "./description.ts";

/** A line that starts a block of its own in Markdown (or Markdoc), and so is never joined to the line before. */
const blockStart = /^\s*(?:[|#>*+-]|\d+[.)]\s|```|\{%|$)/;

/** Joins the lines of each paragraph with a space; tables, lists, headings, fences and Markdoc tags keep their lines. */
export function unwrapParagraphs(markdown: string): string {
  const lines = markdown.split("\n");
  const out: string[] = [];
  let fenced = false;
  for (const line of lines) {
    const previous = out.at(-1);
    const joinable = !fenced && previous !== undefined && !blockStart.test(previous) && !blockStart.test(line) && !/(\s{2}|\\)$/.test(previous);
    if (joinable) out[out.length - 1] = `${previous} ${line.trim()}`;
    else out.push(line);
    if (/^\s*```/.test(line)) fenced = !fenced;
  }
  return out.join("\n");
}

/** Applies `change` to every `description` string anywhere in a document, in place. */
export function rewriteDescriptions(node: unknown, change: (text: string) => string): void {
  if (Array.isArray(node)) for (const item of node) rewriteDescriptions(item, change);
  else if (node !== null && typeof node === "object") {
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (key === "description" && typeof value === "string") record[key] = change(value);
      else rewriteDescriptions(value, change);
    }
  }
}

type Schema = Record<string, unknown>;

/** The property names and the enum and const values reachable from a schema, in first-seen order. */
export function fieldsAndValues(schema: Schema, document: { components?: { schemas?: Record<string, Schema> } }): { fields: string[]; values: string[] } {
  const fields = new Set<string>();
  const values = new Set<string>();
  const seen = new Set<Schema>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    let current = node as Schema;
    if (typeof current["$ref"] === "string") {
      // A reference the document does not hold adds nothing.
      try {
        current = resolveReference<Schema>(document, current);
      } catch {
        return;
      }
    }
    if (seen.has(current)) return;
    seen.add(current);
    for (const value of (current["enum"] as unknown[] | undefined) ?? []) if (value !== null) values.add(String(value));
    if (typeof current["const"] === "string") values.add(current["const"]);
    for (const key of ["allOf", "oneOf", "anyOf"]) for (const part of (current[key] as unknown[] | undefined) ?? []) visit(part);
    for (const [name, property] of Object.entries((current["properties"] as Record<string, unknown> | undefined) ?? {})) {
      fields.add(name);
      visit(property);
    }
    visit(current["items"]);
    visit(current["additionalProperties"]);
  };
  visit(schema);
  return { fields: [...fields], values: [...values] };
}

/** The paragraph a model page gets: every field and value it shows, so search finds the page by any of them. */
export function fieldIndexParagraph(fields: readonly string[], values: readonly string[]): string {
  const list = (items: readonly string[]): string => items.map((item) => `\`${item}\``).join(", ");
  return [`Fields on this page: ${list(fields)}.`, values.length > 0 ? ` Values: ${list(values)}.` : ""].join("");
}

/** A copy of the description for the reference: paragraphs unwrapped, and each model page listing its fields and values. */
export function withSearchableText<T extends { tags?: { description?: string }[]; components?: { schemas?: Record<string, Schema> } }>(description: T): T {
  const copy = structuredClone(description);
  rewriteDescriptions(copy, unwrapParagraphs);
  for (const tag of copy.tags ?? []) {
    const text = tag.description ?? "";
    const name = /schemaDefinition schemaRef="#\/components\/schemas\/([^"]+)"/.exec(text)?.[1];
    const schema = name ? copy.components?.schemas?.[name] : undefined;
    if (!schema) continue;
    const { fields, values } = fieldsAndValues(schema, copy);
    tag.description = text.replace(/(\{% schemaDefinition)/, `${fieldIndexParagraph(fields, values)}\n\n$1`);
  }
  return copy;
}
