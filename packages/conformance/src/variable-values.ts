import type { VariableType } from "@bot-conversation/types";
import fc from "fast-check";
import type { RuleGenerator } from "./checks/family.ts";

/** A value a variable type does not accept, with what it is in words. */
export interface NearMiss {
  /** The value sent in `externalEventPayload`. */
  readonly value: unknown;
  /** What it is, e.g. `a numeric string`. */
  readonly what: string;
}

/** A kind of value, in words, and a generator of every value of that kind: one is drawn per run, by the run's seed. */
export interface ValueKind {
  /** What the values are, e.g. `a numeric string`. */
  readonly what: string;
  /** Every value of the kind. */
  readonly values: fc.Arbitrary<unknown>;
}

/**
 * One row of the variable-type table, a generator of the catalog: the seed's rule of the type (`variable-date-time`),
 * values the type accepts, the near misses a lax server lets through, and the values the seed leaves open. The
 * variable families of `payload_validation_rejection` and `payload_acceptance` name the rows as their generators.
 */
export interface VariableTypeRow extends RuleGenerator {
  /** Values in the type's format, across the type's space (the client's `validateEventPayload` has the last word). */
  readonly accepted: fc.Arbitrary<unknown>;
  /** The value of the type most servers see most (for a `DateTime`, UTC written with `Z`): fired first, before the generated ones. */
  readonly familiar: unknown;
  /** Kinds of values one step from the format that the seed's words rule out (`ruledOutBySeed`): what a server that coerces or checks loosely accepts. */
  readonly nearMisses: readonly ValueKind[];
  /**
   * Values the kit fails no server for, either way: forms of ISO 8601 that the seed's words allow but the
   * toolkit's one date rule does not (our choice, `parseDateTime`), and RFC 3339's space for `T`, which readers
   * of "ISO 8601" take or leave. The kit fires each once and reports the answers (`date_time_variable_forms`).
   */
  readonly openForms?: readonly ValueKind[];
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

/**
 * An arbitrary made by `build` on its first draw (or shrink), then kept: the very values the built one draws, by the
 * same seeds. fast-check's strings of the `binary` unit map every code point of Unicode back to its index when they are
 * made (about 80 MiB of heap, held as long as the process lives): a process that loads the kit and never draws such
 * text (the recorder, which runs the kit's checks on each exchange) does not pay it.
 */
class BuiltOnFirstDraw<T> extends fc.Arbitrary<T> {
  readonly #build: () => fc.Arbitrary<T>;
  #built: fc.Arbitrary<T> | undefined;

  constructor(build: () => fc.Arbitrary<T>) {
    super();
    this.#build = build;
  }

  get #arbitrary(): fc.Arbitrary<T> {
    this.#built ??= this.#build();
    return this.#built;
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.#arbitrary.generate(random, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.#arbitrary.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.#arbitrary.shrink(value, context);
  }
}

/**
 * Text of any code point of Unicode but U+0000: a NUL in a value is a point the seed leaves open, which stores such as
 * PostgreSQL's `text` cannot keep (the sandbox refuses it with a 400), so the kit demands no server take it (our choice).
 */
const anyText = (constraints: { minLength?: number; maxLength: number }): fc.Arbitrary<string> =>
  new BuiltOnFirstDraw(() =>
    fc
      .string({ unit: "binary", ...constraints })
      .map((text) => text.replaceAll("\u0000", ""))
      .filter((text) => text.length >= (constraints.minLength ?? 0)),
  );

/** A letter of any script Unicode has (`\p{L}`), from the whole range of code points: names are not only Latin. */
const letter = fc
  .integer({ min: 0x41, max: 0x3134a })
  .map((codePoint) => String.fromCodePoint(codePoint))
  .filter((character) => /^\p{L}$/u.test(character));
/** A word of one to twelve letters, its first upper case where its script has case. */
const word = fc.string({ unit: letter, minLength: 1, maxLength: 12 }).map((text) => text.charAt(0).toUpperCase() + text.slice(1));
/** A particle of a family name, in lower case (`van`, `de`, `al`), in any script. */
const particle = fc.string({ unit: letter, minLength: 1, maxLength: 4 }).map((text) => text.toLowerCase());

/**
 * A full name in every shape the seed's "a string holding a full name" allows: a given and a family name, with middle
 * names, initials, a particle, a hyphenated or an apostrophed family name, in any script, one space between parts.
 */
const personName = fc.oneof(
  fc.tuple(word, word).map((parts) => parts.join(" ")),
  fc.tuple(word, fc.array(word, { minLength: 1, maxLength: 3 }), word).map(([given, middle, family]) => [given, ...middle, family].join(" ")),
  fc
    .tuple(fc.array(letter, { minLength: 1, maxLength: 3 }), word)
    .map(([initials, family]) => [...initials.map((each) => `${each.toUpperCase()}.`), family].join(" ")),
  fc.tuple(word, particle, word).map((parts) => parts.join(" ")),
  fc.tuple(word, word, word).map(([given, first, second]) => `${given} ${first}-${second}`),
  fc.tuple(word, word, word).map(([given, first, second]) => `${given} ${first}'${second}`),
);

/** Minutes of a UTC offset: any ISO 8601 writes (±23:59). */
const offsetMinutes = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
const twoDigits = (value: number): string => String(Math.abs(value)).padStart(2, "0");
const zoneOf = (offset: number): string => `${offset < 0 ? "-" : "+"}${twoDigits(Math.floor(Math.abs(offset) / 60))}:${twoDigits(Math.abs(offset) % 60)}`;
/** An instant from year 1 to year 9999 of the proleptic Gregorian calendar, at any millisecond. */
const instant = fc
  .date({ min: new Date("0001-01-02T00:00:00Z"), max: new Date("9999-12-30T23:59:59.999Z"), noInvalidDate: true })
  .map((date) => date.getTime());
/** The local fields of an instant at an offset: `YYYY-MM-DDTHH:MM:SS` and the milliseconds. */
const localAt = (at: number, offset: number): { text: string; milliseconds: number } => {
  const local = new Date(at + offset * 60_000);
  return { text: local.toISOString().slice(0, 19), milliseconds: local.getUTCMilliseconds() };
};
/** A fraction of 0 to 9 digits, its first three the milliseconds. */
const fraction = (milliseconds: number, digits: number): string =>
  digits === 0 ? "" : `.${String(milliseconds).padStart(3, "0").padEnd(digits, "0").slice(0, digits)}`;

/**
 * An instant from year 1 to 9999 written with seconds, a fraction of 0 to 9 digits, and `Z` or any offset from -23:59
 * to +23:59: the whole of RFC 3339's profile of ISO 8601 (upper-case `T` and `Z`), which every reading of the seed's
 * "ISO 8601" takes and the toolkit's one date rule reads.
 */
const dateTimeWithOffset = fc.tuple(instant, fc.option(offsetMinutes, { freq: 3 }), fc.integer({ min: 0, max: 9 })).map(([at, offset, digits]) => {
  const { text, milliseconds } = localAt(at, offset ?? 0);
  return `${text}${fraction(milliseconds, digits)}${offset === null ? "Z" : zoneOf(offset)}`;
});

/** The ISO 8601 forms (and RFC 3339's space) that the toolkit's date rule does not read: each written from any instant. */
const openDateTimeForms: readonly { what: string; write: (local: string, zone: string) => string }[] = [
  { what: "a time without an offset", write: (local) => local },
  { what: "a date alone", write: (local) => local.slice(0, 10) },
  { what: "ISO 8601's basic format", write: (local, zone) => `${local.replaceAll("-", "").replaceAll(":", "")}${zone.replace(":", "")}` },
  { what: "a space instead of T (RFC 3339 allows it for readability)", write: (local, zone) => `${local.replace("T", " ")}${zone}` },
  { what: "a time without seconds", write: (local, zone) => `${local.slice(0, 16)}${zone}` },
  { what: "an offset of whole hours without minutes", write: (local, zone) => `${local}${zone.slice(0, 3)}` },
  { what: "a decimal comma", write: (local, zone) => `${local},5${zone}` },
];

/**
 * A download link: `http` or `https`, a domain, a port or none, and up to four path segments of any Unicode
 * text percent-encoded (RFC 3986). Not `fc.webUrl()`, whose first construction took about a second of CPU
 * (fast-check checks its percent-encoded characters against every string it knows to be troublesome), paid by
 * every process that loaded the kit, `bot-conversation check` included.
 */
const downloadLink = fc
  .tuple(
    fc.constantFrom("https", "http"),
    fc.domain(),
    fc.option(fc.integer({ min: 1, max: 65_535 }), { freq: 4 }),
    fc.array(anyText({ minLength: 1, maxLength: 10 }), { maxLength: 4 }),
  )
  .map(([scheme, host, port, path]) => `${scheme}://${host}${port === null ? "" : `:${port}`}/${path.map(encodeURIComponent).join("/")}`);

/** A file name: any Unicode text, then a dot and an extension of letters and digits. */
const fileName = fc.tuple(anyText({ minLength: 1, maxLength: 16 }), fc.stringMatching(/^[A-Za-z0-9]{1,5}$/)).map(([base, extension]) => `${base}.${extension}`);

/** Any JSON object (keys of any Unicode text, values of any JSON). */
const jsonObject = fc.dictionary(anyText({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
/** A finite number anywhere in the range of a double, or any safe integer. */
const anyNumber = fc.oneof(fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }));
/** White space that `String.prototype.trim` removes (Unicode's, not only ASCII's). */
const whiteSpace = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000", "\ufeff"), minLength: 1, maxLength: 6 });

/** The seed's variable-type table (Variable types and value formats), as the kit generates from it: one place for every type, each row naming its rule. */
export const variableTypeTable: Readonly<Record<VariableType, VariableTypeRow>> = {
  String: {
    rule: "variable-string",
    // Any text: every code point of Unicode, the empty string included.
    accepted: fc.oneof(anyText({ maxLength: 64 }), fc.string({ unit: "grapheme", maxLength: 24 })),
    familiar: "Order 42",
    nearMisses: [
      { what: "a number", values: anyNumber },
      { what: "a boolean", values: fc.boolean() },
    ],
  },
  Number: {
    rule: "variable-number",
    accepted: anyNumber,
    familiar: 42,
    nearMisses: [
      { what: "a boolean", values: fc.boolean() },
      { what: "a numeric string", values: anyNumber.map(String) },
    ],
  },
  Boolean: {
    rule: "variable-boolean",
    accepted: fc.boolean(),
    familiar: true,
    nearMisses: [
      // The right value's own JSON text in a string (what a server coercing strings takes), and other spellings, each drawn every run.
      { what: "a string spelling a boolean", values: fc.boolean().map(String) },
      { what: "a string spelling a boolean in capitals", values: fc.constantFrom("True", "FALSE", "TRUE", "False") },
      { what: "a numeric string", values: fc.integer({ min: 0, max: 1 }).map(String) },
      { what: "a number", values: fc.integer({ min: 0, max: 1 }) },
    ],
  },
  DateTime: {
    rule: "variable-date-time",
    accepted: dateTimeWithOffset,
    familiar: "2026-11-20T06:15:02Z",
    // "string, ISO 8601": a number, and strings in no form of ISO 8601, are ruled out.
    nearMisses: [
      { what: "an epoch integer", values: instant },
      {
        what: "a day-first date with slashes, no form of ISO 8601",
        values: instant.map((at) => {
          const iso = new Date(at).toISOString();
          return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)} ${iso.slice(11, 19)}`;
        }),
      },
      { what: "an HTTP date (RFC 9110), no form of ISO 8601", values: instant.map((at) => new Date(at).toUTCString()) },
    ],
    // ISO 8601 (none names one instant by RFC 3339's profile), and RFC 3339's readable space: the server decides.
    openForms: openDateTimeForms.map(({ what, write }) => ({
      what,
      values: fc.tuple(instant, offsetMinutes).map(([at, offset]) => write(localAt(at, offset).text, zoneOf(offset))),
    })),
  },
  ComplexObject: {
    rule: "variable-complex-object",
    accepted: jsonObject,
    familiar: { street: "Main" },
    nearMisses: [
      { what: "an array", values: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }) },
      { what: "null", values: fc.constant(null) },
      { what: "a string holding JSON", values: jsonObject.map((object) => JSON.stringify(object)) },
    ],
  },
  PersonName: {
    rule: "variable-person-name",
    accepted: personName,
    familiar: "Ada Lovelace",
    nearMisses: [
      { what: "an empty string", values: fc.constant("") },
      { what: "white space only", values: whiteSpace },
      { what: "a number", values: anyNumber },
    ],
  },
  File: {
    rule: "variable-file",
    accepted: fc.record({ name: fileName, fileUrl: downloadLink }),
    familiar: { name: "invoice.pdf", fileUrl: "https://files.example/invoice.pdf" },
    nearMisses: [
      {
        what: "a name without an extension",
        values: fc.record({ name: fc.string({ unit: letter, minLength: 1, maxLength: 12 }), fileUrl: downloadLink }),
      },
      { what: "no fileUrl", values: fc.record({ name: fileName }) },
      { what: "a string", values: downloadLink },
    ],
  },
};

/** Every generator of the variable-type table, in the seed's order: the generators the variable families name. */
export const variableGenerators: readonly VariableTypeRow[] = Object.values(variableTypeTable);

const rowOf = (type: string): VariableTypeRow | undefined => (variableTypeTable as Record<string, VariableTypeRow | undefined>)[type];

/** One value of each kind, drawn by `seed` (the run's): the same seed draws the same values. */
const drawn = (kinds: readonly ValueKind[], seed: number): NearMiss[] =>
  kinds.map((kind, index) => ({ value: fc.sample(kind.values, { seed: seed + index, numRuns: 1 })[0], what: kind.what }));

/** A near miss of each kind the table lists for a type, drawn by the run's seed (none for a type the table does not list: a newer service's). */
export const nearMissesOf = (type: string, seed: number): readonly NearMiss[] => drawn(rowOf(type)?.nearMisses ?? [], seed);

/** A value of each form of a type that the seed allows and the toolkit's rule does not, drawn by the run's seed (none for most types). */
export const openFormsOf = (type: string, seed: number): readonly NearMiss[] => drawn(rowOf(type)?.openForms ?? [], seed);
