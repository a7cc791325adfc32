import { resolveReference } from "../description.ts";
import type { TryItField, TryItOperation, TryItServer } from "./request.ts";

/**
 * The "Try it" panel's forms, read from the bundled description at build time: one per operation,
 * a field per parameter and per property of the request body, each with its type, whether it is
 * required, the values it may take and the description's example. Nothing is listed by hand.
 */

/** A JSON Schema as the bundle writes it (the parts the form reads). */
interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  examples?: unknown[];
  example?: unknown;
  properties?: Record<string, Schema | boolean>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  example?: unknown;
}
interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema; examples?: Record<string, { $ref?: string; value?: unknown }> }> };
}
/** The parts of the bundled description the forms are made from. */
export interface FormBundle {
  servers?: { url: string; description?: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter>; examples?: Record<string, { value?: unknown }> };
}

const methods = ["get", "put", "post", "delete", "patch"];

/** An example as a field shows it: strings as they are, anything else as JSON. */
const asText = (value: unknown): string | undefined => (value === undefined ? undefined : typeof value === "string" ? value : JSON.stringify(value));

/** A field from a schema: a choice for an enumeration, JSON for objects and arrays, text otherwise; its type in a few words. */
function field(bundle: FormBundle, name: string, location: TryItField["in"], required: boolean, given: Schema, example: unknown): TryItField {
  const schema = resolveReference(bundle, given);
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type): type is string => type !== undefined);
  // A query or path value is text whatever its type; in a JSON body anything but a string is written as JSON.
  const structured = location === "body" ? types.some((type) => type !== "string") : types.some((type) => type === "object" || type === "array");
  const bounds = [schema.minimum !== undefined ? `at least ${schema.minimum}` : "", schema.maximum !== undefined ? `at most ${schema.maximum}` : ""].filter(
    Boolean,
  );
  const type = `${types.join(" or ") || "any"}${schema.format ? ` (${schema.format})` : ""}${bounds.length > 0 ? `, ${bounds.join(", ")}` : ""}`;
  const shown = asText(example ?? schema.example ?? schema.examples?.[0]);
  return {
    name,
    in: location,
    required,
    kind: schema.enum ? "choice" : structured ? "json" : "text",
    type: structured ? `${type}, as JSON` : type,
    ...(schema.enum ? { choices: schema.enum.map(String) } : {}),
    ...(shown !== undefined && !schema.enum ? { example: shown } : {}),
  };
}

/** The body's fields: the properties of its schema, or of every variant of a `oneOf`, required when every variant requires them. */
function bodyFields(bundle: FormBundle, operation: Operation): { fields: TryItField[]; note?: string } {
  const body = operation.requestBody && resolveReference(bundle, operation.requestBody);
  const media = body?.content?.["application/json"];
  if (!media?.schema) return { fields: [] };
  const schema = resolveReference(bundle, media.schema);
  const variants = (schema.oneOf ?? schema.anyOf ?? [schema]).map((variant) => resolveReference(bundle, variant));
  const firstExample = Object.values(media.examples ?? {}).map((example) => resolveReference(bundle, example).value)[0] as Record<string, unknown> | undefined;
  const names = [
    ...new Set(
      variants.flatMap((variant) =>
        Object.entries(variant.properties ?? {})
          .filter(([, property]) => property !== false)
          .map(([name]) => name),
      ),
    ),
  ];
  const requiredBy = (name: string) => variants.filter((variant) => variant.required?.includes(name)).length;
  const fields = names.map((name) => {
    const property = variants.map((variant) => variant.properties?.[name]).find((candidate): candidate is Schema => typeof candidate === "object");
    return field(bundle, name, "body", requiredBy(name) === variants.length, property ?? {}, firstExample?.[name]);
  });
  const alternatives = names.filter((name) => requiredBy(name) > 0 && requiredBy(name) < variants.length);
  return { fields, ...(alternatives.length > 1 ? { note: `Give one of ${alternatives.join(" or ")}: each variant of the body requires one.` } : {}) };
}

/** One form per operation of the description, in its order. */
export function tryItOperations(bundle: FormBundle): TryItOperation[] {
  return Object.entries(bundle.paths).flatMap(([path, item]) => {
    const shared = ((item["parameters"] as Parameter[] | undefined) ?? []).map((parameter) => resolveReference(bundle, parameter));
    return methods.flatMap((method) => {
      const operation = item[method] as Operation | undefined;
      if (!operation) return [];
      const parameters = [...shared, ...(operation.parameters ?? []).map((parameter) => resolveReference(bundle, parameter))];
      const { fields, note } = bodyFields(bundle, operation);
      return [
        {
          operationId: operation.operationId,
          summary: operation.summary ?? operation.operationId,
          method: method.toUpperCase(),
          path,
          fields: [
            ...parameters.map((parameter) =>
              field(bundle, parameter.name, parameter.in as TryItField["in"], parameter.required === true, parameter.schema ?? {}, parameter.example),
            ),
            ...fields,
          ],
          ...(note ? { bodyNote: note } : {}),
        },
      ];
    });
  });
}

/** The description's servers with their variables' defaults, first sentence of the description as the label; the same address once. */
export function descriptionServers(bundle: FormBundle): TryItServer[] {
  const servers = (bundle.servers ?? []).map((server) => ({
    url: server.url.replace(/\{(\w+)\}/g, (_match, name: string) => server.variables?.[name]?.default ?? `{${name}}`),
    label: (server.description ?? server.url)
      .replaceAll("`", "")
      .split(/[:.](?:\s|$)/)[0]!
      .trim(),
  }));
  return servers.filter((server, index) => servers.findIndex((other) => other.url === server.url) === index);
}
