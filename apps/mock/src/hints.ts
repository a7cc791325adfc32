import { stripVTControlCharacters } from "node:util";

/** Where the mock's README explains each answer Prism gives about the description itself. */
const readme = 'apps/mock/README.md, "Answers about the description, not the API"';

/**
 * Reads Prism's log line by line and returns a hint for the lines where Prism answered about the
 * description instead of the API: a `Prefer` header asking for a status or an example the operation
 * does not document. Prism's own answer (a 404 or 500 problem+json) reads like the API's, so the
 * hint says what it means. Returns a function to call with each line; it returns the hint or `undefined`.
 */
export function createHinter(): (line: string) => string | undefined {
  let missingExample: string | undefined;
  return (rawLine) => {
    const line = stripVTControlCharacters(rawLine);
    const example = /exampleKey: (.+) does not exist\./.exec(line);
    if (example) {
      missingExample = example[1];
      return undefined;
    }
    if (!/Request terminated with error: .*errors#NOT_FOUND/.test(line)) return undefined;
    const name = missingExample;
    missingExample = undefined;
    if (name !== undefined) {
      return (
        `mock hint: the response Prism chose has no example "${name}"; example names belong to one status, so send ` +
        `"Prefer: code=<its status>, example=${name}". Prism's ${line.includes("We tried default response") ? "500" : "404"} ` +
        `problem+json is about the description, not the API (${readme}).`
      );
    }
    return (
      `mock hint: the Prefer header asks for a status this operation does not document, so Prism answered 404 ` +
      `problem+json ("Requested status code … is not defined in the document"): about the description, not the API's ` +
      `own 404. The documented statuses are in ${readme}.`
    );
  };
}
