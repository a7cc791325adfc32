/**
 * What one exchange shows against the description: problems with a JSON pointer into the request or
 * the response (array indexes as `*`; a missing property named), from the one description layer
 * (`@bot-conversation/openapi`'s reader and `./ajv`) and the conformance kit's checks of every response
 * and every page (`checkCatalog`, as `check` runs them). A field the description does not list where it
 * allows more, or a query parameter it does not list, is a finding: the service leaves it open.
 */

import { validateEventPayload } from "@bot-conversation/client";
import { schemaProblem } from "@bot-conversation/client/text";
import {
  type CheckContext,
  checkCatalog,
  type Description,
  type Exchange,
  type ExchangeCheck,
  failureText,
  readTriggerList,
} from "@bot-conversation/conformance";
import { type CompiledDescription, compileDescription, type OpenApiDescription, pointerSegment, type Schema } from "@bot-conversation/openapi";
import { documentValidator, type ErrorObject } from "@bot-conversation/openapi/ajv";
import type { ExternalEventTrigger } from "@bot-conversation/types";
import type { RecordedExchange } from "./exchange.js";

/** One thing an exchange shows: where (a JSON pointer), what, and whether it makes the exchange invalid or is a finding on an open point. */
export interface Observation {
  /** JSON pointer into the request (`/query/<name>`, `/path/<name>`, `/body/...`) or the response body (`/items/*\/status`); `""` for the exchange as a whole. */
  readonly pointer: string;
  /** What was expected and what came back (never a value of a personal field). */
  readonly message: string;
  /** A finding (an open point, an undocumented field) rather than a problem that makes the exchange invalid. */
  readonly finding: boolean;
}

/** The operation an exchange belongs to, by method and path template; its path parameters. */
export interface MatchedOperation {
  /** operationId. */
  readonly id: string;
  /** Path parameters by name, decoded. */
  readonly pathParameters: Readonly<Record<string, string>>;
}

/** The kit's checks of every response and of every page, except the schema's, which `responseObservations` makes with pointers. */
const kitChecks: ReadonlyArray<readonly [string, ExchangeCheck]> = Object.entries(checkCatalog).flatMap(([name, entry]) =>
  "onEvery" in entry && "check" in entry && name !== "response_schema_conformance" ? [[name, entry.check as ExchangeCheck] as const] : [],
);

/** Validates recorded exchanges against the bundled description. */
export class ExchangeValidator {
  readonly #reader: OpenApiDescription;
  readonly #validator;
  readonly #compiled: CompiledDescription;

  /** The description the exchanges are validated against. */
  readonly description: Description;

  constructor(description: Description) {
    this.description = description;
    this.#compiled = compileDescription(description.document);
    this.#reader = this.#compiled.reader;
    // verbose: the one wording says what the schema expects from it (`parentSchema`) and what came (`data`).
    this.#validator = documentValidator(description.document, { validateFormats: true, verbose: true });
  }

  /** The operation of a method and path, or undefined when the description has none. */
  match(method: string, path: string): MatchedOperation | undefined {
    // The recorder judges only the methods the description names: a HEAD is not its GET here.
    const found = this.#compiled.operationOf(method, path, { headAsGet: false });
    if (found === undefined) return undefined;
    return { id: found.operation.id, pathParameters: found.pathParameters };
  }

  /** Everything the exchange shows, in a stable order; `context` as the kit's checks take it. */
  observe(exchange: RecordedExchange, operation: MatchedOperation | undefined, context: Omit<CheckContext, "description">): Observation[] {
    if (!operation) return [{ pointer: "", message: `request: ${exchange.method} ${exchange.path} is no operation of the description`, finding: false }];
    const observations = [...this.#requestObservations(exchange, operation), ...this.#responseObservations(exchange, operation)];
    const kitExchange: Exchange = {
      case: {
        operationId: operation.id,
        method: exchange.method,
        path: exchange.path,
        query: exchange.query,
        authentication: "token",
        body: exchange.requestJson,
      },
      status: exchange.status,
      headers: exchange.headers,
      text: exchange.text,
      json: exchange.json,
      isJson: exchange.isJson,
      elapsedMs: 0,
      invalidUtf8: exchange.invalidUtf8,
    };
    const documented = this.description.documentedResponse(this.description.operations.get(operation.id)!, exchange.status) !== undefined;
    for (const [name, check] of kitChecks) {
      const verdict = failureText(check(kitExchange, { ...context, description: this.description }));
      if (verdict === undefined) continue;
      // A status the description documents for the operation (the trigger list's 500) is the service's documented answer: a finding, not an invalid exchange.
      if (name === "not_a_server_error" && documented)
        observations.push({ pointer: "", message: `${name}: ${verdict}, a status the description documents for ${operation.id}`, finding: true });
      else observations.push({ pointer: "", message: `${name}: ${verdict}`, finding: false });
    }
    return observations;
  }

  /**
   * A fire answered 2xx, judged against the recorded trigger lists (`triggersOf`: the trigger list of the
   * conversation's bot, or every recorded list when the bot is not known): a trigger no list has is the
   * kit's `unknown_trigger_not_found` at `/body/externalEventId`; a value its type refuses (the client's
   * one payload rule, `validateEventPayload`) is `payload_validation_rejection` at
   * `/body/externalEventPayload/<code>`. With no list to judge by, a finding says it was not judged.
   */
  fireObservations(
    exchange: RecordedExchange,
    lists: { readonly bot: string | undefined; readonly triggers: readonly ExternalEventTrigger[] | undefined },
  ): Observation[] {
    if (exchange.status < 200 || exchange.status > 299) return [];
    const body = exchange.requestJson as { externalEventId?: unknown; externalEventPayload?: unknown } | undefined;
    if (typeof body !== "object" || body === null || typeof body.externalEventId !== "string") return [];
    const id = body.externalEventId;
    if (lists.triggers === undefined)
      return [
        {
          pointer: "/body/externalEventId",
          message: `not judged: ${lists.bot === undefined ? "no trigger list was recorded" : `the trigger list of bot ${lists.bot} was not recorded`}, so the trigger and its payload cannot be checked`,
          finding: true,
        },
      ];
    const candidates = lists.triggers.filter((trigger) => trigger.externalEventId === id);
    if (candidates.length === 0)
      return [
        {
          pointer: "/body/externalEventId",
          message: `unknown_trigger_not_found: expected 404 for a trigger ${lists.bot === undefined ? "no recorded trigger list has" : `the recorded trigger list of bot ${lists.bot} does not have`}; got ${exchange.status}`,
          finding: false,
        },
      ];
    const payload = body.externalEventPayload;
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return [];
    const verdicts = candidates.map((trigger) => validateEventPayload(trigger, payload as Record<string, unknown>));
    if (verdicts.some((problems) => problems.length === 0)) return [];
    return verdicts[0]!.map((problem) => ({
      pointer: `/body/externalEventPayload/${pointerSegment(problem.variableCode)}`,
      message: `payload_validation_rejection: expected 500 for a value ${problem.expectedType === null ? "of no variable of the trigger" : `its type ${problem.expectedType} refuses`}; got ${exchange.status}`,
      finding: false,
    }));
  }

  #requestObservations(exchange: RecordedExchange, operation: MatchedOperation): Observation[] {
    const described = this.#reader.operation(operation.id);
    const observations: Observation[] = [];
    for (const parameter of described.parameters) {
      const text = parameter.in === "query" ? exchange.query[parameter.name] : parameter.in === "path" ? operation.pathParameters[parameter.name] : undefined;
      const place = `/${parameter.in}/${pointerSegment(parameter.name)}`;
      if (text === undefined) {
        if (parameter.required && parameter.in === "query")
          observations.push({ pointer: place, message: "request: the required parameter is missing", finding: false });
        continue;
      }
      const type = parameter.schema["type"];
      const value = (type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
      observations.push(...this.#schemaObservations("request", parameter.schemaPointer, value, place));
    }
    const listed = new Set(described.parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name));
    for (const name of Object.keys(exchange.query)
      .filter((name) => !listed.has(name))
      .sort()) {
      observations.push({
        pointer: `/query/${pointerSegment(name)}`,
        message: "a query parameter the description does not list (what the service does with one is not shown)",
        finding: true,
      });
    }
    const body = described.node["requestBody"] === undefined ? undefined : this.#reader.pointerOf(`${described.pointer}/requestBody`);
    if (body !== undefined && exchange.hasRequestBody) {
      const content = (this.#reader.resolve(body)["content"] ?? {}) as Record<string, unknown>;
      const mediaType = Object.keys(content)[0];
      if (exchange.requestJson === undefined)
        observations.push({ pointer: "/body", message: "request: expected a JSON body; got one that is not JSON", finding: false });
      else if (mediaType)
        observations.push(...this.#schemaObservations("request", `${body}/content/${pointerSegment(mediaType)}/schema`, exchange.requestJson, "/body"));
    }
    return observations;
  }

  #responseObservations(exchange: RecordedExchange, operation: MatchedOperation): Observation[] {
    const documented = this.description.documentedResponse(this.description.operations.get(operation.id)!, exchange.status);
    const pointer = documented?.schemaPointer;
    if (!pointer || exchange.text === "") return [];
    if (!exchange.isJson)
      return [{ pointer: "", message: `response: expected a JSON body valid against ${pointer}; got a body that is not JSON`, finding: false }];
    if (operation.id === "listExternalEventTriggers" && exchange.status === 200) {
      // The list's shape is an open point: its descriptors are checked whatever the shape (as the kit's schema check does).
      const list = readTriggerList(exchange.json);
      if (list.shape === "other")
        return [
          {
            pointer: "",
            message: "response: expected the trigger list as an array of descriptors, one descriptor, or an object wrapping one array",
            finding: false,
          },
        ];
      const base = list.shape === "wrapped" ? `/${pointerSegment(list.property!)}` : "";
      const observations = this.#schemaObservations("response", pointer, list.triggers, base);
      return list.shape === "single"
        ? observations.map((observation) => ({ ...observation, pointer: observation.pointer.replace(/^\/\*/, "") }))
        : observations;
    }
    return [
      ...this.#schemaObservations("response", pointer, exchange.json, ""),
      ...undocumentedFields(this.#reader, this.#reader.resolve(pointer), exchange.json, ""),
    ];
  }

  #schemaObservations(side: "request" | "response", schemaPointer: string, value: unknown, base: string): Observation[] {
    const validate = this.#validator.compile(schemaPointer);
    if (validate(value)) return [];
    const errors = (validate.errors ?? []).filter((error) => error.keyword !== "anyOf" && error.keyword !== "oneOf" && error.keyword !== "if");
    return errors.map((error) => ({ pointer: base + pointerOfError(error), message: `${side}: ${messageOf(error)}`, finding: false }));
  }
}

/** An Ajv error's place: its instance path with array indexes as `*`, and the property it names when one is missing or not allowed. */
export function pointerOfError(error: ErrorObject): string {
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((segment) => (/^\d+$/.test(segment) ? "*" : segment));
  const named =
    (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
    (error.params as { additionalProperty?: string }).additionalProperty;
  if (named !== undefined) path.push(pointerSegment(named));
  return path.map((segment) => `/${segment}`).join("");
}

/** An Ajv error in the toolkit's one wording (`schemaProblem`), the value typed, never shown (it may be an end user's). */
function messageOf(error: ErrorObject): string {
  return schemaProblem(error, { values: "types" }).message;
}

/** The properties a schema lists for an object (its own, its `allOf`'s and its `anyOf`/`oneOf` branches'), each with its schema; and whether the schema is closed. */
function propertiesOf(reader: OpenApiDescription, schema: Schema, depth = 0): { properties: Map<string, Schema>; open: boolean; closed: boolean } {
  const resolved = reader.resolveNode(schema);
  const properties = new Map<string, Schema>(Object.entries((resolved["properties"] ?? {}) as Record<string, Schema>));
  let open = resolved["additionalProperties"] !== undefined && resolved["additionalProperties"] !== false;
  const closed = resolved["additionalProperties"] === false;
  if (depth < 8) {
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      for (const part of (resolved[keyword] ?? []) as Schema[]) {
        const inner = propertiesOf(reader, part, depth + 1);
        for (const [name, child] of inner.properties) if (!properties.has(name)) properties.set(name, child);
        open ||= inner.open;
      }
    }
  }
  return { properties, open, closed };
}

/** The item schema of an array schema (through `$ref`, `anyOf`, `oneOf`), when it has one. */
function itemsOf(reader: OpenApiDescription, schema: Schema): Schema | undefined {
  const resolved = reader.resolveNode(schema);
  if (resolved["items"]) return resolved["items"] as Schema;
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    for (const part of (resolved[keyword] ?? []) as Schema[]) {
      const items = itemsOf(reader, part);
      if (items) return items;
    }
  }
  return undefined;
}

/** Findings: every field of `value` the schema does not list where it allows more (a closed schema's extra field is Ajv's, an invalid exchange). Each pointer once. */
function undocumentedFields(reader: OpenApiDescription, schema: Schema, value: unknown, pointer: string, seen = new Set<string>(), depth = 0): Observation[] {
  if (depth > 16 || value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) {
    const items = itemsOf(reader, schema);
    return items ? value.flatMap((item) => undocumentedFields(reader, items, item, `${pointer}/*`, seen, depth + 1)) : [];
  }
  const { properties, open, closed } = propertiesOf(reader, schema);
  // An object the description leaves open with no properties of its own (`session.apps`): its content is not shown.
  if (properties.size === 0 && open) return [];
  return Object.entries(value).flatMap(([name, child]) => {
    const place = `${pointer}/${pointerSegment(name)}`;
    const described = properties.get(name);
    if (described) return undocumentedFields(reader, described, child, place, seen, depth + 1);
    if (closed || open || seen.has(place)) return [];
    seen.add(place);
    return [{ pointer: place, message: "a field the description does not list", finding: true }];
  });
}
