import { type OpenApiDescription, readDescription } from "@bot-conversation/openapi";

/** One reader per document, made on first use. */
const readers = new WeakMap<object, OpenApiDescription>();

/** `node` itself, or what its `$ref` points at in `document` (followed to the end), by `@bot-conversation/openapi`'s reader. */
export function resolveReference<T extends object>(document: object, node: T | { $ref: string }): T {
  let reader = readers.get(document);
  if (!reader) readers.set(document, (reader = readDescription(document)));
  return reader.resolveNode(node);
}
