import type { VariableType } from "@bot-conversation/types";
import fc from "fast-check";

/** A value a variable type does not accept, with what it is in words. */
export interface NearMiss {
  /** The value sent in `externalEventPayload`. */
  readonly value: unknown;
  /** What it is, e.g. `the string "1"`. */
  readonly what: string;
}

/** One row of the variable-type table: values the type accepts, the near misses a lax server lets through, and the values the seed leaves open. */
export interface VariableTypeRow {
  /** Values in the type's format, across the type's space (the client's `validateEventPayload` has the last word). */
  readonly accepted: fc.Arbitrary<unknown>;
  /** The value of the type most servers see most (for a `DateTime`, UTC written with `Z`): fired first, before the generated ones. */
  readonly familiar: unknown;
  /** Values one step from the format that the seed's words rule out (`ruledOutBySeed`): what a server that coerces or checks loosely accepts. */
  readonly nearMisses: readonly NearMiss[];
  /**
   * Values the kit fails no server for, either way: forms of ISO 8601 that the seed's words allow but the
   * toolkit's one date rule does not (our choice, `parseDateTime`), and RFC 3339's space for `T`, which readers
   * of "ISO 8601" take or leave. The kit fires each once and reports the answers (`date_time_variable_forms`).
   */
  readonly openForms?: readonly NearMiss[];
}

/**
 * ISO 8601's forms of a date, a time of day, or both, read as widely as the standard writes them: a calendar,
 * ordinal or week date in the extended or basic format (or a year and month, or a year alone), a time of reduced
 * precision with a decimal fraction (a point or a comma), `T` between them, an offset or none. The seed's
 * `DateTime` is "string, ISO 8601": a string of none of these forms is what its words rule out.
 */
const iso8601 =
  /^(?:(?:[+-]\d{5,}|\d{4})(?:-(?:\d\d(?:-\d\d)?|\d{3}|W\d\d(?:-\d)?)|\d{4}|\d{3}|W\d\d\d?)?)?(?:T?\d\d(?::?\d\d(?::?\d\d)?)?(?:[.,]\d+)?(?:Z|[+-]\d\d(?::?\d\d)?)?)?$/;

/** Whether a value is a string in one of ISO 8601's date and time forms (`iso8601`), not an empty one. */
export const isIso8601 = (value: unknown): value is string => typeof value === "string" && value !== "" && /\d/.test(value) && iso8601.test(value);

/**
 * Whether the seed's variable-type table rules a value out for a type (Variable types and value formats): for a
 * `DateTime`, anything but a string in one of ISO 8601's forms; for the other types, what the client's
 * `validateEventPayload` refuses (`fits`), whose rules are the table's words. A near miss the kit fails a server
 * for must pass this; a value it does not pass but the client refuses is an open form, reported, never failed.
 */
export const ruledOutBySeed = (type: string, value: unknown, fits: (value: unknown) => boolean): boolean =>
  type === "DateTime" ? !isIso8601(value) : !fits(value);

/** A letter of any script, upper or lower case, for names across Unicode (not only the familiar Latin ones). */
const nameWord = fc
  .tuple(
    fc.constantFrom("A", "Ö", "Ł", "Ж", "Ή", "Ա", "李", "ת", "Ñ", "Ş"),
    fc.string({ unit: fc.constantFrom("a", "é", "ø", "ß", "ж", "ι", "ա", "明", "ו", "ğ", "-", "'"), minLength: 1, maxLength: 9 }),
  )
  .map(([first, rest]) => first + rest);

/** Minutes of a UTC offset, from -14:00 to +14:00 (the offsets in use), any minute. */
const offsetMinutes = fc.integer({ min: -14 * 60, max: 14 * 60 });
const twoDigits = (value: number): string => String(value).padStart(2, "0");

/**
 * An instant written with seconds, a fraction of 0 to 9 digits, and `Z` (two in three: the form most servers
 * write) or any offset from -14:00 to +14:00: RFC 3339's profile of ISO 8601, which every reading of the seed's
 * "ISO 8601" takes.
 */
const dateTimeWithOffset = fc
  .tuple(
    fc.date({ min: new Date("1970-01-02T00:00:00Z"), max: new Date("2099-12-30T23:59:59Z"), noInvalidDate: true }),
    fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: offsetMinutes }),
    fc.integer({ min: 0, max: 9 }),
  )
  .map(([date, offset, digits]) => {
    const local = new Date(date.getTime() + (offset ?? 0) * 60_000).toISOString();
    const fraction =
      digits === 0
        ? ""
        : `.${String(date.getTime() % 1000)
            .padStart(3, "0")
            .padEnd(digits, "0")
            .slice(0, digits)}`;
    const zone = offset === undefined ? "Z" : `${offset < 0 ? "-" : "+"}${twoDigits(Math.floor(Math.abs(offset) / 60))}:${twoDigits(Math.abs(offset) % 60)}`;
    return `${local.slice(0, 19)}${fraction}${zone}`;
  });

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
    // Any text: every grapheme of Unicode, the empty string included.
    accepted: fc.string({ unit: "grapheme", maxLength: 24 }),
    familiar: "Order 42",
    nearMisses: [
      { value: 42, what: "a number" },
      { value: true, what: "a boolean" },
    ],
  },
  Number: {
    accepted: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
    familiar: 42,
    nearMisses: [
      { value: true, what: "a boolean" },
      { value: "1", what: 'the string "1"' },
      { value: "-12.5", what: "a numeric string" },
    ],
  },
  Boolean: {
    accepted: fc.boolean(),
    familiar: true,
    nearMisses: [
      { value: "true", what: 'the string "true"' },
      { value: "1", what: 'the string "1"' },
      { value: 1, what: "the number 1" },
    ],
  },
  DateTime: {
    accepted: dateTimeWithOffset,
    familiar: "2026-11-20T06:15:02Z",
    // "string, ISO 8601": a number, and strings in no form of ISO 8601, are ruled out.
    nearMisses: [
      { value: 1_763_630_102_000, what: "an epoch integer" },
      { value: "20/11/2026 09:15:02", what: "a day-first date with slashes, no form of ISO 8601" },
      { value: "Fri, 20 Nov 2026 09:15:02 GMT", what: "an HTTP date (RFC 9110), no form of ISO 8601" },
    ],
    // ISO 8601 (none names one instant by RFC 3339's profile), and RFC 3339's readable space: the server decides.
    openForms: [
      { value: "2026-11-20T09:15:02", what: "a time without an offset" },
      { value: "2026-11-20", what: "a date alone" },
      { value: "20261120T091502Z", what: "ISO 8601's basic format" },
      { value: "2026-11-20 09:15:02+03:00", what: "a space instead of T (RFC 3339 allows it for readability)" },
    ],
  },
  ComplexObject: {
    accepted: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean()), { maxKeys: 3 }),
    familiar: { street: "Main" },
    nearMisses: [
      { value: [{ street: "Main" }], what: "an array" },
      { value: null, what: "null" },
      { value: '{"street":"Main"}', what: "a string holding JSON" },
    ],
  },
  PersonName: {
    accepted: fc.tuple(nameWord, nameWord).map(([first, last]) => `${first} ${last}`),
    familiar: "Ada Lovelace",
    nearMisses: [
      { value: "", what: "an empty string" },
      { value: "   ", what: "white space only" },
      { value: 42, what: "a number" },
    ],
  },
  File: {
    accepted: fc.record({ name: fc.stringMatching(/^[a-z]{1,8}\.(pdf|png|txt)$/), fileUrl: downloadLink }),
    familiar: { name: "invoice.pdf", fileUrl: "https://files.example/invoice.pdf" },
    nearMisses: [
      { value: { name: "invoice", fileUrl: "https://files.example/invoice" }, what: "a name without an extension" },
      { value: { name: "invoice.pdf" }, what: "no fileUrl" },
      { value: "https://files.example/invoice.pdf", what: "a string" },
    ],
  },
};

const rowOf = (type: string): VariableTypeRow | undefined => (variableTypeTable as Record<string, VariableTypeRow | undefined>)[type];

/** The near misses of a type (none for a type the table does not list: a newer service's). */
export const nearMissesOf = (type: string): readonly NearMiss[] => rowOf(type)?.nearMisses ?? [];

/** The values of a type that the seed allows and the toolkit's rule does not (none for most types). */
export const openFormsOf = (type: string): readonly NearMiss[] => rowOf(type)?.openForms ?? [];
