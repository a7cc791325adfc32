import type { VariableType } from "@bot-conversation/types";
import fc from "fast-check";

/** A value a variable type does not accept, with what it is in words. */
export interface NearMiss {
  /** The value sent in `externalEventPayload`. */
  readonly value: unknown;
  /** What it is, e.g. `the string "1"`. */
  readonly what: string;
}

/** One row of the variable-type table: values the type accepts, and the near misses a lax server lets through. */
export interface VariableTypeRow {
  /** Values in the type's format (the client's `validateEventPayload` has the last word). */
  readonly accepted: fc.Arbitrary<unknown>;
  /** Values one step from the format: what a server that coerces or checks loosely accepts. */
  readonly nearMisses: readonly NearMiss[];
}

const word = fc.stringMatching(/^[A-Z][a-z]{1,9}$/);

/**
 * A download link: `http` or `https`, a domain, and up to four path segments of unreserved characters
 * (RFC 3986). Not `fc.webUrl()`, whose first construction took about a second of CPU (fast-check checks
 * its percent-encoded characters against every string it knows to be troublesome), paid by every process
 * that loaded the kit, `bot-conversation check` included.
 */
const downloadLink = fc
  .tuple(fc.constantFrom("https", "http"), fc.domain(), fc.array(fc.stringMatching(/^[\w~-][\w.~-]{0,11}$/), { maxLength: 4 }))
  .map(([scheme, host, path]) => `${scheme}://${host}/${path.join("/")}`);

/** The seed's variable-type table (Variable types and value formats), as the kit generates from it: one place for every type. */
export const variableTypeTable: Readonly<Record<VariableType, VariableTypeRow>> = {
  String: {
    accepted: fc.string({ maxLength: 24 }),
    nearMisses: [
      { value: 42, what: "a number" },
      { value: true, what: "a boolean" },
    ],
  },
  Number: {
    accepted: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
    nearMisses: [
      { value: true, what: "a boolean" },
      { value: "1", what: 'the string "1"' },
      { value: "-12.5", what: "a numeric string" },
    ],
  },
  Boolean: {
    accepted: fc.boolean(),
    nearMisses: [
      { value: "true", what: 'the string "true"' },
      { value: "1", what: 'the string "1"' },
      { value: 1, what: "the number 1" },
    ],
  },
  DateTime: {
    accepted: fc.date({ min: new Date("2015-01-01T00:00:00Z"), max: new Date("2035-12-31T23:59:59Z"), noInvalidDate: true }).map((date) => date.toISOString()),
    nearMisses: [
      { value: 1_763_630_102_000, what: "an epoch integer" },
      { value: "2026-11-20T09:15:02", what: "a time without an offset" },
      { value: "2026-11-20", what: "a date alone" },
      { value: "2026-11-20 09:15:02+03:00", what: "a space instead of T" },
    ],
  },
  ComplexObject: {
    accepted: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean()), { maxKeys: 3 }),
    nearMisses: [
      { value: [{ street: "Main" }], what: "an array" },
      { value: null, what: "null" },
      { value: '{"street":"Main"}', what: "a string holding JSON" },
    ],
  },
  PersonName: {
    accepted: fc.tuple(word, word).map(([first, last]) => `${first} ${last}`),
    nearMisses: [
      { value: "", what: "an empty string" },
      { value: "   ", what: "white space only" },
      { value: 42, what: "a number" },
    ],
  },
  File: {
    accepted: fc.record({ name: fc.stringMatching(/^[a-z]{1,8}\.(pdf|png|txt)$/), fileUrl: downloadLink }),
    nearMisses: [
      { value: { name: "invoice", fileUrl: "https://files.example/invoice" }, what: "a name without an extension" },
      { value: { name: "invoice.pdf" }, what: "no fileUrl" },
      { value: "https://files.example/invoice.pdf", what: "a string" },
    ],
  },
};

/** The near misses of a type (none for a type the table does not list: a newer service's). */
export const nearMissesOf = (type: string): readonly NearMiss[] => (variableTypeTable as Record<string, VariableTypeRow | undefined>)[type]?.nearMisses ?? [];
