import { parseDateTime, validateEventPayload } from "@bot-conversation/client";
import { dateFilters, searchPeriods } from "@bot-conversation/openapi";
import type { ExternalEventTrigger, VariableType } from "@bot-conversation/types";
import fc from "fast-check";
import type { Operation, Parameter, Schema } from "./description.ts";
import { ruledOutBySeed, variableTypeTable } from "./variable-values.ts";

/** Values seen in the server's own data, so generated filters hit real conversations. */
export interface Observed {
  /** Bot identifiers known to exist (`--agent-stage-id`). */
  readonly agentStageIds: readonly string[];
  /** Channel identifiers seen in search results. */
  readonly channelIds: readonly string[];
  /** `startedOn` and `latestMessageOn` values seen in search results. */
  readonly dates: readonly string[];
  /** `pageIndex` of the first page, once known: a lower index is valid by the schema but its meaning depends on the open base. */
  readonly pageBase?: number;
  /** The largest `pageSize` the team's config accepts as the server's maximum, when it names one. */
  readonly maxPageSize?: number | undefined;
  /** `pageSize` of a search without one, once known: a larger one may be past the server's own maximum (an open point). */
  readonly defaultPageSize?: number | undefined;
}

/** A query that breaks exactly one parameter's schema, naming it. */
export interface InvalidQuery {
  /** The query as sent. */
  readonly query: Record<string, string>;
  /** Name of the parameter whose value the description rules out. */
  readonly parameter: string;
}

const dateTimes = fc
  .date({ min: new Date("2015-01-01T00:00:00Z"), max: new Date("2035-12-31T23:59:59Z"), noInvalidDate: true })
  .map((date) => date.toISOString());

/** Query-string values valid against a parameter's schema, biased towards values seen in the data. */
function validValue(parameter: Parameter, observed: Observed): fc.Arbitrary<string> {
  const { schema } = parameter;
  const seen = (values: readonly string[]): fc.Arbitrary<string>[] => (values.length > 0 ? [fc.constantFrom(...values)] : []);
  if (Array.isArray(schema["enum"])) return fc.constantFrom(...(schema["enum"] as string[]));
  if (schema["type"] === "integer") {
    const declared = typeof schema["minimum"] === "number" ? schema["minimum"] : 0;
    // pageIndex 0 on a server that counts from 1 is a question the service leaves open, not a conformance failure.
    const minimum = parameter.name === "pageIndex" ? Math.max(declared, observed.pageBase ?? declared) : declared;
    const maximum = minimum + (parameter.name === "pageIndex" ? 5 : 100);
    // A maximum below the minimum (a server's page size of 0) leaves the minimum alone.
    const cap = parameter.name === "pageSize" ? Math.max(minimum, Math.min(maximum, observed.maxPageSize ?? maximum)) : maximum;
    return fc.integer({ min: minimum, max: cap }).map(String);
  }
  if (schema["format"] === "date-time") return fc.oneof(...seen(observed.dates), dateTimes);
  // Never empty: an empty value may be read as the parameter's absence, which the seed does not settle (filter_match
  // leaves such a query unjudged).
  const anyText = fc.string({ minLength: 1, maxLength: 16 });
  if (parameter.name === "agentStageId") return fc.oneof(...seen(observed.agentStageIds), anyText);
  if (parameter.name === "channelId") return fc.oneof(...seen(observed.channelIds), anyText);
  return anyText;
}

/**
 * The generators of values no query parameter's schema of their kind accepts, made once (a `stringMatching`
 * costs milliseconds to make, and a run asks for them again for every operation).
 */
const lettersOnly = fc.stringMatching(/^[A-Za-z]{1,12}$/);
const lowerLetters = fc.stringMatching(/^[a-z]{1,8}$/);
const lettersAndSpaces = fc.stringMatching(/^[a-z][a-z ]{0,14}$/);

/** Query-string values the parameter's schema rules out, or undefined when a query string cannot break it. */
function invalidValue(schema: Schema): fc.Arbitrary<string> | undefined {
  if (Array.isArray(schema["enum"])) {
    // Letters only, and no other letter case of an allowed value: whether case is ignored is an open point.
    const allowed = (schema["enum"] as string[]).map((value) => value.toLowerCase());
    return lettersOnly.filter((value) => !allowed.includes(value.toLowerCase()));
  }
  if (schema["type"] === "integer") {
    const below = typeof schema["minimum"] === "number" ? [fc.integer({ min: -1000, max: schema["minimum"] - 1 }).map(String)] : [];
    // Letters and a fraction only: hexadecimal or exponent forms are numbers to some parsers, and a false alarm.
    return fc.oneof(...below, lowerLetters, fc.constant("1.5"));
  }
  // Letters and spaces only: never an RFC 3339 date-time, however lenient the parser.
  if (schema["format"] === "date-time") return fc.oneof(fc.constant("next Tuesday"), lettersAndSpaces);
  return undefined;
}

/** Orders each period's bounds (its `from` filter's ≤ its `to` filter's, by the search filters' one table): a reversed range is a question the description does not answer. */
function orderRanges(query: Record<string, string>): Record<string, string> {
  for (const { from, to } of searchPeriods) {
    const low = query[from];
    const high = query[to];
    if (low !== undefined && high !== undefined && parseDateTime(low) > parseDateTime(high)) {
      query[from] = high;
      query[to] = low;
    }
  }
  return query;
}

/** Queries valid against every query parameter's schema, each parameter present or not. */
export function validQuery(operation: Operation, observed: Observed): fc.Arbitrary<Record<string, string>> {
  const parameters = operation.parameters.filter((parameter) => parameter.in === "query");
  const model = Object.fromEntries(parameters.map((parameter) => [parameter.name, validValue(parameter, observed)]));
  return fc.record(model, { requiredKeys: [] }).map((query) => orderRanges({ ...(query as Record<string, string>) }));
}

const day = 86_400_000;

/**
 * Queries built to return data: the known bot most of the time, at most two filters, each with a
 * value taken from the server's own data (a seen channel, a period around a seen date), and a page
 * near the first. Generated searches that carry every filter at random values find nothing, and a
 * filter that finds nothing checks nothing.
 */
export function dataQuery(operation: Operation, observed: Observed): fc.Arbitrary<Record<string, string>> {
  const parameters = new Map(operation.parameters.filter((parameter) => parameter.in === "query").map((parameter) => [parameter.name, parameter]));
  const candidates: Record<string, fc.Arbitrary<string>> = {};
  const seenDate = observed.dates.length > 0 ? fc.constantFrom(...observed.dates).map((date) => parseDateTime(date)) : undefined;
  for (const [name, parameter] of parameters) {
    if (Array.isArray(parameter.schema["enum"])) candidates[name] = fc.constantFrom(...(parameter.schema["enum"] as string[]));
    else if (name === "channelId" && observed.channelIds.length > 0) candidates[name] = fc.constantFrom(...observed.channelIds);
    else if (parameter.schema["format"] === "date-time" && seenDate) {
      // A "from" bound at or before a seen date, a "to" bound at or after it: the conversation stays inside.
      const direction = dateFilters.find((filter) => filter.name === name)?.how === "from" ? -1 : 1;
      candidates[name] = fc
        .tuple(seenDate, fc.integer({ min: 0, max: 7 * day }))
        .map(([instant, shift]) => new Date(instant + direction * shift).toISOString());
    }
  }
  const names = Object.keys(candidates);
  const base = observed.pageBase ?? 0;
  return fc
    .record({
      bot:
        observed.agentStageIds.length > 0 && parameters.has("agentStageId")
          ? fc.option(fc.constantFrom(...observed.agentStageIds), { freq: 5 })
          : fc.constant(null),
      chosen: fc.subarray(names, { maxLength: Math.min(2, names.length) }),
      values: fc.record(candidates),
      pageSize: parameters.has("pageSize") ? fc.option(fc.integer({ min: 1, max: Math.min(50, observed.maxPageSize ?? 50) }), { freq: 2 }) : fc.constant(null),
      pageIndex: parameters.has("pageIndex") ? fc.option(fc.integer({ min: base, max: base + 2 }), { freq: 2 }) : fc.constant(null),
    })
    .map(({ bot, chosen, values, pageSize, pageIndex }) => {
      const query: Record<string, string> = {};
      if (bot !== null) query["agentStageId"] = bot;
      for (const name of chosen) query[name] = values[name]!;
      if (pageSize !== null) query["pageSize"] = String(pageSize);
      if (pageIndex !== null) query["pageIndex"] = String(pageIndex);
      return orderRanges(query);
    });
}

/** Generated searches: four in five built to return data (`dataQuery`), one in five anywhere in the schemas (`validQuery`). */
export function searchQuery(operation: Operation, observed: Observed): fc.Arbitrary<Record<string, string>> {
  return fc.oneof({ weight: 4, arbitrary: dataQuery(operation, observed) }, { weight: 1, arbitrary: validQuery(operation, observed) });
}

/** Queries where exactly one parameter breaks its schema and the others are valid. */
export function invalidQuery(operation: Operation, observed: Observed): fc.Arbitrary<InvalidQuery> | undefined {
  const breakable = operation.parameters.flatMap((parameter) => {
    const value = parameter.in === "query" ? invalidValue(parameter.schema) : undefined;
    return value ? [{ parameter, value }] : [];
  });
  if (breakable.length === 0) return undefined;
  // The other parameters stay within what every reading takes: a page size past the default may be past the server's maximum.
  const companions: Observed = { ...observed, maxPageSize: observed.maxPageSize ?? observed.defaultPageSize };
  return fc.oneof(
    ...breakable.map(({ parameter, value }) =>
      fc.tuple(validQuery(operation, companions), value).map(([query, bad]) => ({ query: { ...query, [parameter.name]: bad }, parameter: parameter.name })),
    ),
  );
}

/** Path values for a path parameter: known ones and arbitrary non-empty strings. */
export function pathValue(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(...(known.length > 0 ? [fc.constantFrom(...known)] : []), fc.string({ minLength: 1, maxLength: 24 }));
}

/** Any value the request schema allows for a variable (string, number, boolean, object). */
const anyVariableValue = fc.oneof(
  fc.string({ maxLength: 16 }),
  fc.constant("next Tuesday"),
  fc.integer(),
  fc.boolean(),
  fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
);

/** One variable of a trigger, by code, with its declared type. */
export interface TriggerVariable {
  /** The trigger it belongs to. */
  readonly trigger: ExternalEventTrigger;
  /** Variable code, the key in `externalEventPayload`. */
  readonly code: string;
  /** Its declared type. */
  readonly type: VariableType;
}

/** Whether `value` has the format of the variable's type; the client's `validateEventPayload` is the one judge. */
export const fitsType = (variable: TriggerVariable, value: unknown): boolean => validateEventPayload(variable.trigger, { [variable.code]: value }).length === 0;

/**
 * Whether the seed's words rule `value` out for the variable's type (`ruledOutBySeed`): what a fire may be failed
 * for accepting. A value the client refuses but the seed allows (a `DateTime` without an offset) is not.
 */
export const ruledOut = (variable: TriggerVariable, value: unknown): boolean => ruledOutBySeed(variable.type, value, (each) => fitsType(variable, each));

/** Values in the format of the variable's type. */
export function rightValue(variable: TriggerVariable): fc.Arbitrary<unknown> {
  return variableTypeTable[variable.type].accepted.filter((value) => fitsType(variable, value));
}

/** The familiar value of the variable's type, tried before the generated ones (none when the client refuses it for this variable). */
export const familiarValues = (variable: TriggerVariable): unknown[] => {
  const { familiar } = variableTypeTable[variable.type];
  return fitsType(variable, familiar) ? [familiar] : [];
};

/** Values the request schema allows but the variable's type, by the seed's words, does not. */
export function wrongValue(variable: TriggerVariable): fc.Arbitrary<unknown> {
  return anyVariableValue.filter((value) => !fitsType(variable, value) && ruledOut(variable, value));
}

/** A value of another JSON type than the schema's `type` allows (an integer for a string, a string for an object). */
const otherType = (schema: Schema): fc.Arbitrary<unknown> => {
  const types = ([] as unknown[]).concat(schema["type"] ?? []);
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (!types.includes("string")) candidates.push(fc.string({ minLength: 1, maxLength: 8 }));
  if (!types.includes("number") && !types.includes("integer")) candidates.push(fc.integer());
  if (!types.includes("object")) candidates.push(fc.constant({}));
  if (!types.includes("array")) candidates.push(fc.constant([]));
  return fc.oneof(...candidates);
};

/** The valid body without each required property of the variant in turn: few, so every run sends each (`exploreInvalidFire`). */
export function withoutRequired(variant: Schema, valid: Record<string, unknown>): { body: Record<string, unknown>; change: string }[] {
  const required = (variant["required"] as string[] | undefined) ?? [];
  return required.map((name) => ({ body: Object.fromEntries(Object.entries(valid).filter(([key]) => key !== name)), change: `without ${name}` }));
}

/**
 * Bodies that break the request schema in one place, made from a valid body: a required property
 * dropped, a required property of another type, or empty where `minLength` rules it out. `isInvalid`
 * (the description's own validator) keeps only those the schema really rules out.
 */
export function invalidBody(
  variant: Schema,
  resolve: (schema: Schema) => Schema,
  valid: Record<string, unknown>,
  isInvalid: (body: unknown) => boolean,
): fc.Arbitrary<{ body: Record<string, unknown>; change: string }> {
  const properties = Object.entries((variant["properties"] as Record<string, Schema> | undefined) ?? {}).map(
    ([name, schema]) => [name, resolve(schema)] as const,
  );
  const required = (variant["required"] as string[] | undefined) ?? [];
  // Only the properties the variant requires are broken in place: an optional one beside them (the other identifier of
  // the conversation) may go unread by a server whose identifier wins, a point the seed leaves open ("Which identifier
  // wins when both conversationId and externalConversationId are given: not shown").
  const read = properties.filter(([name]) => required.includes(name));
  const changes: fc.Arbitrary<{ body: Record<string, unknown>; change: string }>[] = [
    ...withoutRequired(variant, valid).map((each) => fc.constant(each)),
    ...read.map(([name, schema]) => otherType(schema).map((value) => ({ body: { ...valid, [name]: value }, change: `${name} of another type` }))),
    ...read
      .filter(([, schema]) => typeof schema["minLength"] === "number" && schema["minLength"] > 0)
      .map(([name]) => fc.constant({ body: { ...valid, [name]: "" }, change: `${name} empty` })),
  ];
  return fc.oneof(...changes).filter(({ body }) => isInvalid(body));
}
