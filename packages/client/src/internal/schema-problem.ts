/**
 * The toolkit's one wording of a schema error: where (a JSON pointer) and what was expected and what came, in the
 * words of `wrongValueText` / `expectedOfSchema`. The sandbox's 400s, the MCP server's argument and result checks,
 * the recorder's observations, the kit's schema check and the CLI's flags word a value that fails a schema with it.
 */
import { describeValue, expectedButGot, expectedOfSchema } from "./describe.js";
import { redact } from "./redact.js";
import { sanitizeText } from "./sanitize.js";

/**
 * An error of a JSON Schema validator, as Ajv's `ErrorObject` has it (with Ajv's `verbose: true`, which adds
 * `parentSchema` and `data`): read here by its shape, so the wording needs no validator of its own.
 */
export interface SchemaError {
  /** The failing keyword: `type`, `enum`, `required`, `additionalProperties`, … */
  readonly keyword: string;
  /** JSON pointer of the value in the checked document (`/items/0/status`); `""` for the root. */
  readonly instancePath: string;
  /** The keyword's parameters (`missingProperty`, `additionalProperty`, `propertyName`, `allowedValues`, …). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The validator's own words (`must be >= 1`), for a keyword the wording has no words of its own for. */
  readonly message?: string;
  /** The schema holding the keyword (verbose errors). */
  readonly parentSchema?: unknown;
  /** The value that failed (verbose errors). */
  readonly data?: unknown;
  /** Set on an error of a property name's own schema (under `propertyNames`): the name. */
  readonly propertyName?: string;
}

/** How a schema error is worded. */
export interface SchemaProblemOptions {
  /** `"shown"` (default): the value that came, as JSON cut at 40 characters; `"types"`: only its JSON type (`a string`), for values that may be an end user's. */
  readonly values?: "shown" | "types";
  /** Secrets a shown value must never carry: each is replaced by `[redacted]` (the toolkit's one redactor). */
  readonly tokens?: Iterable<string>;
  /** The value shown for the root instead of `data` (a query parameter's text, checked as the number it reads as). */
  readonly sent?: string;
}

/** One value that fails a schema: where, and what was expected and what came. */
export interface SchemaProblem {
  /** JSON pointer of the field from the checked value's root (`/items/0/status`), a missing or unlisted property's name last; `""` for the root. */
  readonly pointer: string;
  /** `expected an integer of at least 1; got 0`, `expected a non-empty string; got nothing`, `expected only the properties a, b here; got this one`. */
  readonly message: string;
}

type SchemaWords = Readonly<Record<string, unknown>>;

/** The keywords of a wrong value that a schema's words (`expectedOfSchema`) say whole (an `anyOf`'s: every alternative). */
const worded = new Set(["type", "enum", "const", "format", "minimum", "maximum", "minLength", "anyOf", "oneOf"]);

/** `a/b` as a JSON pointer's segment (`a~1b`). */
const segment = (name: string): string => `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;

/** A value's JSON type in words: `a string`, `a number`, `a boolean`, `an object`, `an array`, `null`. */
function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A value as the wording shows it: `nothing` when missing, JSON cut at 40 characters or its JSON type; secrets redacted, control characters made visible. */
function shown(value: unknown, options: SchemaProblemOptions): string {
  if (value === undefined) return "nothing";
  return sanitizeText(options.values === "types" ? typeOf(value) : redact(describeValue(value), options.tokens ?? []));
}

/**
 * A schema error in the toolkit's one wording: its place as a JSON pointer (control characters made visible: a
 * name a peer sent may hold them) and `expected …; got …`. A wrong type, enumeration value, constant, format,
 * range or empty string is said in the schema's words (`expected one of Active, Closed, Operator; got "Weird"`,
 * with the schema's first example, or the description's date example for a date, after `such as`); a missing
 * property as what its schema expects and `got nothing`; a property the schema does not allow with the ones it
 * lists; a wrong property name with what a name must be; any other keyword in the validator's words
 * (`expected a value that must NOT have more than 64 characters; got …`). Values are shown or typed by `options`.
 */
export function schemaProblem(error: SchemaError, options: SchemaProblemOptions = {}): SchemaProblem {
  const parent = (typeof error.parentSchema === "object" && error.parentSchema !== null ? error.parentSchema : {}) as SchemaWords;
  const properties = (parent["properties"] ?? {}) as Record<string, SchemaWords>;
  const place = error.instancePath;
  const at = (pointer: string, expected: string, got: string): SchemaProblem => ({ pointer: sanitizeText(pointer), message: expectedButGot(expected, got) });
  const got = () => shown(place === "" && options.sent !== undefined ? options.sent : error.data, options);
  // An error of a name's own schema says what its `propertyNames` error says.
  if (error.propertyName !== undefined)
    return at(place + segment(error.propertyName), `a property name that is ${expectedOfSchema(parent)}`, shown(error.propertyName, options));
  switch (error.keyword) {
    case "required": {
      const name = String(error.params["missingProperty"]);
      const schema = properties[name];
      return at(place + segment(name), schema ? expectedOfSchema(schema, firstExample(schema)) : "a value", "nothing");
    }
    case "additionalProperties":
    case "unevaluatedProperties": {
      const name = String(error.params["additionalProperty"] ?? error.params["unevaluatedProperty"]);
      const listed = Object.keys(properties);
      return at(
        place + segment(name),
        error.keyword === "additionalProperties" && listed.length > 0
          ? `only the properties ${listed.join(", ")} here`
          : "no property the schema does not list here",
        "this one",
      );
    }
    case "propertyNames": {
      const name = String(error.params["propertyName"]);
      return at(place + segment(name), `a property name that is ${expectedOfSchema((parent["propertyNames"] ?? {}) as SchemaWords)}`, shown(name, options));
    }
    case "false schema":
      return at(place, "nothing here", got());
    default:
      if (worded.has(error.keyword) && Object.keys(parent).length > 0) return at(place, expectedOfSchema(parent, firstExample(parent)), got());
      return at(place, `a value that ${error.message ?? `fits the schema's ${error.keyword}`}`, got());
  }
}

/** A date and time as the description's date rule wants it: seconds and a UTC offset. */
const dateTimeExample = "2026-11-20T09:15:02+03:00";

/** The schema's first example, or for a date with none the description's date example. */
function firstExample(schema: SchemaWords): unknown {
  return (schema["examples"] as unknown[] | undefined)?.[0] ?? (schema["format"] === "date-time" ? dateTimeExample : undefined);
}
