/**
 * End users' words and names replaced by deterministic pseudonyms: a keyed hash (HMAC-SHA-256 with
 * the recording's salt, node:crypto), so the same value always gives the same pseudonym within one
 * salt (equal names stay equal) and another salt gives others. Identifiers are never replaced, so
 * filters and fires still work on a recording.
 */
import { createHmac } from "node:crypto";
import { pointerKeys } from "@bot-conversation/openapi";

/** A field of a conversation summary holding an end user's words or name: a JSON pointer (`*` for any array index) and the word its pseudonym starts with. */
export interface PersonalField {
  /** JSON pointer into a conversation summary, `*` for any array index. */
  readonly pointer: string;
  /** The word a pseudonym of it starts with: `text-…`, `name-…`, or `value-…` for a pointer given with `--personal`. */
  readonly kind: "text" | "name" | "value";
}

/**
 * The personal fields of a conversation summary (the description marks none itself; our reading of the
 * seed): the last message's text, the members' names and nicknames, and the platform account's user name.
 */
export const personalFields: readonly PersonalField[] = [
  { pointer: "/latestMessageText", kind: "text" },
  { pointer: "/members/*/name", kind: "name" },
  { pointer: "/members/*/nickname", kind: "name" },
  { pointer: "/channelData/platform/client/userName", kind: "name" },
];

/** The pseudonym of `value` under `salt`: `<kind>-` and 16 hex digits of HMAC-SHA-256(salt, value). The kind is not hashed, so equal values share their digits whatever the field. */
export function pseudonymOf(salt: string, kind: PersonalField["kind"], value: string): string {
  return `${kind}-${createHmac("sha256", salt).update(value).digest("hex").slice(0, 16)}`;
}

/** Checks a pointer given with `--personal`: `/` then segments, `*` for any array index. */
export function checkPersonalPointer(pointer: string): string {
  if (!/^(\/[^/]+)+$/.test(pointer))
    throw new TypeError(
      `--personal: expected a JSON pointer into a conversation summary such as /channelData/platform/client/externalId; got ${JSON.stringify(pointer)}`,
    );
  return pointer;
}

/** `value` with every string at `keys` (and below it, for an object or an array there) replaced by `replace`; a copy where anything changed. */
function replaceAt(value: unknown, keys: readonly string[], replace: (text: string) => string): unknown {
  if (keys.length === 0) return replaceAll(value, replace);
  const [key, ...rest] = keys as [string, ...string[]];
  if (Array.isArray(value)) {
    if (key === "*") return value.map((item) => replaceAt(item, rest, replace));
    const index = Number(key);
    return Number.isInteger(index) && index in value ? value.map((item, at) => (at === index ? replaceAt(item, rest, replace) : item)) : value;
  }
  if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return value;
  return { ...value, [key]: replaceAt((value as Record<string, unknown>)[key], rest, replace) };
}

/** Every string inside `value` replaced (`null`, numbers and booleans kept). */
function replaceAll(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === "string") return replace(value);
  if (Array.isArray(value)) return value.map((item) => replaceAll(item, replace));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceAll(item, replace)]));
  return value;
}

/** Pseudonymises conversation summaries: the personal fields and the pointers given with `--personal`. */
export function summaryPseudonymizer(salt: string, extraPointers: readonly string[]): <T>(summary: T) => T {
  const fields = [...personalFields, ...extraPointers.map((pointer): PersonalField => ({ pointer, kind: "value" }))].map((field) => ({
    keys: pointerKeys(field.pointer),
    replace: (text: string) => pseudonymOf(salt, field.kind, text),
  }));
  return <T>(summary: T): T => fields.reduce<unknown>((value, field) => replaceAt(value, field.keys, field.replace), summary) as T;
}
