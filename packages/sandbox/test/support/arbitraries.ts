import { readDescription } from "@bot-conversation/openapi";
import { documentValidator } from "@bot-conversation/openapi/ajv";
import fc from "fast-check";

/** A JSON Schema as the bundled description writes it. */
type Schema = object | boolean;

/**
 * fast-check arbitraries read from the schemas of a bundled description: values valid against a
 * schema, and values that are not. Every value is confirmed with Ajv before it is used, so the
 * generator may be loose; only the subset of JSON Schema the request schemas use is understood.
 */
export function arbitrariesOf(document: object) {
  const reader = readDescription(document);
  const validate = documentValidator(document, { allErrors: false });
  const resolve = (schema: Schema): Schema => (typeof schema === "boolean" ? schema : reader.resolveNode(schema));
  // A boolean schema is the trivial check it states.
  const validator = (schema: Schema) => (typeof schema === "boolean" ? () => schema : validate.compile(schema as Record<string, unknown>));
  const dateTime = fc
    .tuple(
      fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true }),
      fc.constantFrom("Z", "+03:00", "-05:30"),
    )
    .map(([date, zone]) => date.toISOString().replace("Z", zone === "Z" ? "Z" : zone));
  const anyJson = fc.jsonValue({ maxDepth: 2 });

  const loose = (schema: Schema, depth: number): fc.Arbitrary<unknown> => {
    const node = resolve(schema) as Record<string, unknown> | boolean;
    if (node === true || (typeof node === "object" && Object.keys(node).filter((key) => !["description", "title", "examples"].includes(key)).length === 0))
      return anyJson;
    if (node === false) return fc.constant(undefined);
    if ("const" in node) return fc.constant(node["const"]);
    if (Array.isArray(node["enum"])) return fc.constantFrom(...(node["enum"] as unknown[]));
    if (Array.isArray(node["oneOf"]) || Array.isArray(node["anyOf"]))
      return fc.oneof(...((node["oneOf"] ?? node["anyOf"]) as Schema[]).map((branch) => loose(branch, depth)));
    const types = ([] as unknown[]).concat(node["type"] ?? "object") as string[];
    return fc.oneof(...types.map((type) => ofType(node, type, depth)));
  };

  const ofType = (node: Record<string, unknown>, type: string, depth: number): fc.Arbitrary<unknown> => {
    switch (type) {
      case "string":
        if (node["format"] === "date-time") return dateTime;
        if (node["format"] === "uri") return fc.webUrl();
        return fc.string({ minLength: (node["minLength"] as number | undefined) ?? 0, maxLength: 24 });
      case "integer":
        return fc.integer({ min: (node["minimum"] as number | undefined) ?? -1000, max: (node["maximum"] as number | undefined) ?? 100_000 });
      case "number":
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      case "array":
        return depth > 3 ? fc.constant([]) : fc.array(loose((node["items"] as Schema | undefined) ?? true, depth + 1), { maxLength: 3 });
      default: {
        if (depth > 3) return fc.constant({});
        const properties = Object.entries((node["properties"] as Record<string, Schema> | undefined) ?? {}).filter(([, property]) => property !== false);
        const required = (node["required"] as string[] | undefined) ?? [];
        const named = fc.record(Object.fromEntries(properties.map(([name, property]) => [name, loose(property, depth + 1)])), {
          requiredKeys: required.filter((name) => properties.some(([property]) => property === name)),
        });
        const additional = node["additionalProperties"];
        const extra =
          additional === undefined || additional === false
            ? fc.constant({})
            : fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), loose(additional as Schema, depth + 1), { maxKeys: 3 });
        return fc.tuple(extra, named).map(([more, known]) => ({ ...more, ...known }));
      }
    }
  };

  return {
    /** Values valid against the schema. */
    valid(schema: Schema): fc.Arbitrary<unknown> {
      const isValid = validator(schema);
      return loose(schema, 0).filter((value) => isValid(value) as boolean);
    },
    /** Values the schema rules out: anything JSON, or a valid value with one property replaced or removed. */
    invalid(schema: Schema): fc.Arbitrary<unknown> {
      const isValid = validator(schema);
      const mutated = loose(schema, 0).chain((value) =>
        typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0
          ? fc.tuple(fc.constantFrom(...Object.keys(value)), fc.option(anyJson, { nil: undefined })).map(([key, replacement]) => {
              const copy: Record<string, unknown> = { ...value };
              if (replacement === undefined) delete copy[key];
              else copy[key] = replacement;
              return copy as unknown;
            })
          : anyJson,
      );
      return fc.oneof(anyJson, mutated).filter((value) => !(isValid(value) as boolean));
    },
    /** Whether a value is valid against the schema. */
    isValid: (schema: Schema, value: unknown) => validator(schema)(value) as boolean,
  };
}
