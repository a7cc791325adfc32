import { inspect } from "node:util";

/** Every form in which an error can be shown or logged: message, stack, `String`, `JSON.stringify`, and `util.inspect` with its whole cause chain and hidden fields. */
export function everyForm(error: unknown): string {
  const { message, stack } = error as Error;
  return [message, stack, String(error), JSON.stringify(error), inspect(error, { depth: Infinity, showHidden: true })].join("\n");
}
