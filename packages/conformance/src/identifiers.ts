/**
 * The neighbourhood of an identifier (a bot, a trigger, a conversation), as the identifier families of
 * the rule catalog send it: near misses that name another resource (cut, with a character more before
 * or after, a reserved character appended), another letter case (the seed is silent on it: a finding),
 * and writings that must mean the same identifier (a percent-encoded character in a URL, RFC 3986
 * §6.2.2.2; a JSON escape in a body, RFC 8259 §7).
 */

/** A near miss of an identifier: `value` as sent, raw in a URL when `raw`. */
export interface IdentifierNearMiss {
  /** The identifier sent (for a raw one, as it goes into the path). */
  readonly value: string;
  /** What it is, in words. */
  readonly what: string;
  /** Whether `value` goes into a path as it is, not percent-encoded (a reserved character sent raw). */
  readonly raw?: boolean;
}

/** Identifiers one step from `id` that name another resource: in a query or a body. */
export function nearMissesOfIdentifier(id: string): IdentifierNearMiss[] {
  return [
    ...(id.length > 1 ? [{ value: id.slice(0, -1), what: "cut by its last character" }] : []),
    { value: `${id}0`, what: "with a character after it" },
    { value: `0${id}`, what: "with a character before it" },
  ];
}

/** In a path, besides the near misses: reserved characters appended raw (a sub-delimiter is data in a segment) and an encoded slash. */
export function pathNearMissesOfIdentifier(id: string): IdentifierNearMiss[] {
  return [
    ...nearMissesOfIdentifier(id).map((miss) => ({ ...miss, value: encodeURIComponent(miss.value), raw: true })),
    { value: `${encodeURIComponent(id)};v=1`, what: "with ;v=1 after it (a reserved character, raw)", raw: true },
    { value: `${encodeURIComponent(id)},0`, what: "with ,0 after it (a reserved character, raw)", raw: true },
    { value: `${encodeURIComponent(id)}%2F0`, what: "with an encoded / and a character after it", raw: true },
  ];
}

/** `id` in another letter case, or undefined when it has no letter. */
export function recased(id: string): string | undefined {
  const other = [...id].map((character) => (character === character.toUpperCase() ? character.toLowerCase() : character.toUpperCase())).join("");
  return other === id ? undefined : other;
}

/** `id` for a URL with its first unreserved character percent-encoded: the same identifier (RFC 3986 §6.2.2.2); undefined when it has none. */
export function percentEncoded(id: string): string | undefined {
  const at = [...id].findIndex((character) => /[A-Za-z0-9]/.test(character));
  if (at === -1) return undefined;
  const characters = [...id];
  const hex = characters[at]!.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
  return [...characters.slice(0, at).map(encodeURIComponent), `%${hex}`, ...characters.slice(at + 1).map(encodeURIComponent)].join("");
}

/** `id` as a JSON string with its first character written as a `\u` escape: the same string (RFC 8259 §7). */
export function jsonEscaped(id: string): string {
  const first = id.charCodeAt(0);
  return `"\\u${first.toString(16).padStart(4, "0")}${JSON.stringify(id.slice(1)).slice(1)}`;
}
