import type { Exchange } from "../case.ts";
import { type ExchangeCheck, notJudged } from "./types.ts";

/**
 * `identifier_encoding`: a request naming an identifier written another way that means the same
 * (`what`) is answered as the request naming it plainly (`reference`): the same status, and the same
 * answer once `digest` has read both bodies (the trigger list itself, a search's total).
 */
export const sameAsIdentifier =
  (what: string, reference: Exchange | undefined, digest: (json: unknown) => unknown = () => undefined): ExchangeCheck =>
  (exchange) => {
    if (!reference) return notJudged(`no plain request to compare ${what} with`);
    if (exchange.status !== reference.status) return `expected ${what} to be answered as the identifier itself (${reference.status}); got ${exchange.status}`;
    const [mine, theirs] = [digest(exchange.json), digest(reference.json)].map((value) => JSON.stringify(value));
    return mine === theirs ? undefined : `expected ${what} to find what the identifier itself finds (${theirs}); got ${mine}`;
  };
