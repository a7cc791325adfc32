import type { SearchConversationsQuery } from "@bot-conversation/types";

/**
 * The opaque cursor of the next page: the search's query with the next `pageIndex`, as base64url JSON.
 * The client's rule of paging applies: the next page is the returned `pageIndex + 1`.
 */
export function encodeCursor(query: SearchConversationsQuery): string {
  return Buffer.from(JSON.stringify(query)).toString("base64url");
}

/** What a cursor that is not one of ours is answered with. */
const notOurs = "cursor: expected the nextCursor of a previous search_conversations result";

/**
 * The query a cursor holds, checked against the search's own parameters: only their names (`filters`),
 * a whole-number `pageIndex`, and values `check` accepts (the search's input schema). A cursor made by
 * hand, e.g. one carrying `x-token` or another query parameter, is a `TypeError` and nothing is sent.
 */
export function decodeCursor(cursor: string, filters: ReadonlySet<string>, check: (query: Record<string, unknown>) => void): SearchConversationsQuery {
  let query: unknown;
  try {
    query = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
  } catch {
    throw new TypeError(notOurs);
  }
  if (typeof query !== "object" || query === null || Array.isArray(query) || !Number.isInteger((query as SearchConversationsQuery).pageIndex))
    throw new TypeError(notOurs);
  const foreign = Object.keys(query).filter((key) => !filters.has(key));
  if (foreign.length > 0) throw new TypeError(`${notOurs}; it holds ${foreign.map((key) => JSON.stringify(key)).join(", ")}, not parameters of the search`);
  try {
    check(query as Record<string, unknown>);
  } catch (error) {
    throw new TypeError(`${notOurs}; its ${(error as Error).message}`);
  }
  return query as SearchConversationsQuery;
}
