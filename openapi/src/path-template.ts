/**
 * The one reading of a description's path templates (`/api/v1/runtime/simple/external/events/{agentStageId}`):
 * parsed once into segments, then matched against the paths of requests, or filled to write a path (a
 * router's pattern, a request's URL). Every surface of the toolkit that asks which operation a request is
 * for matches through it (by way of `compileDescription`), so a path is read one way everywhere. Nothing
 * here needs Node: the same code runs in a browser.
 */

/** One segment of a template: a fixed text, a whole-segment parameter, or a text with parameters inside (`{name}.json`). */
type Segment =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "parameter"; readonly name: string }
  | { readonly kind: "mixed"; readonly pattern: RegExp; readonly names: readonly string[] };

/** A path template of a description, parsed once. */
export interface PathTemplate {
  /** The template as the description writes it. */
  readonly template: string;
  /** The names of its parameters, in the order they appear. */
  readonly parameterNames: readonly string[];
  /**
   * The path parameters of a request's path (as sent: percent-encoded, without the query), each decoded;
   * `undefined` when the path is not one of this template's. The path is split at its `/` first, so an
   * encoded slash (`%2F`) stays inside its parameter; a trailing slash is a segment more, so no match; a
   * parameter never matches an empty segment; a fixed segment matches its text, written plain or encoded.
   */
  match(pathname: string): Readonly<Record<string, string>> | undefined;
  /** How many segments a path of this template has: its `/`s (a path with another count is never one of its). */
  readonly segmentCount: number;
  /** `match` on a path already split at its `/` (`pathname.split("/")`), for a caller that tries many templates. */
  matchSegments(sent: readonly string[]): Readonly<Record<string, string>> | undefined;
  /**
   * The template with each parameter replaced by what `value` gives for its name, as given (encode a
   * request's values yourself): `(name) => `:${name}`` writes Hono's route, `() => "*"` MSW's.
   */
  fill(value: (name: string) => string): string;
}

/** The text of one segment of a request's path, percent-decoded; a malformed escape (`%zz`, a cut UTF-8 sequence) stays as sent. */
export function decodePathSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

const parameterExpression = /\{([^{}]*)\}/g;
const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Parses a path template; an error naming the template when it does not start with `/`, has an unclosed or empty `{}`, or names a parameter twice. */
export function parsePathTemplate(template: string): PathTemplate {
  const refuse = (why: string) => new Error(`The path template ${JSON.stringify(template)} ${why}`);
  if (!template.startsWith("/")) throw refuse("does not start with /");
  const parameterNames: string[] = [];
  const segments = template.split("/").map((text): Segment => {
    const names: string[] = [];
    const rest = text.replace(parameterExpression, (_, name: string) => {
      if (name === "") throw refuse("has an empty parameter {}");
      if (parameterNames.includes(name)) throw refuse(`names the parameter ${name} twice`);
      names.push(name);
      parameterNames.push(name);
      return "";
    });
    if (rest.includes("{") || rest.includes("}")) throw refuse("has a { or } that opens or closes no parameter");
    if (names.length === 0) return { kind: "literal", text };
    if (text === `{${names[0]}}`) return { kind: "parameter", name: names[0]! };
    // Parameters inside a segment: each takes the shortest text that lets the rest match, on the decoded segment.
    const source = text.split(parameterExpression).map((part, index) => (index % 2 === 1 ? "(.+?)" : escapeForPattern(part)));
    return { kind: "mixed", pattern: new RegExp(`^${source.join("")}$`, "s"), names };
  });

  const matchSegments = (sent: readonly string[]): Record<string, string> | undefined => {
    if (sent.length !== segments.length || sent[0] !== "") return undefined;
    const values: Record<string, string> = {};
    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index]!;
      const text = sent[index]!;
      if (segment.kind === "literal") {
        if (text !== segment.text && decodePathSegment(text) !== segment.text) return undefined;
      } else if (segment.kind === "parameter") {
        if (text === "") return undefined;
        values[segment.name] = decodePathSegment(text);
      } else {
        const found = segment.pattern.exec(decodePathSegment(text));
        if (!found) return undefined;
        segment.names.forEach((name, position) => {
          values[name] = found[position + 1]!;
        });
      }
    }
    return values;
  };

  return {
    template,
    parameterNames,
    segmentCount: segments.length,
    match: (pathname) => matchSegments(pathname.split("/")),
    matchSegments,
    fill: (value) => template.replace(parameterExpression, (_, name: string) => value(name)),
  };
}
