import type { SearchConversationsQuery } from "@bot-conversation/types";

/**
 * The opaque cursor of the next page: the search's query with the next `pageIndex`, as base64url JSON.
 * The client's rule of paging applies: the next page is the returned `pageIndex + 1`.
 */
export function encodeCursor(query: SearchConversationsQuery): string {
  return Buffer.from(JSON.stringify(query)).toString("base64url");
}

/** The query a cursor holds; a `TypeError` when it is not one this server made. */
export function decodeCursor(cursor: string): SearchConversationsQuery {
  try {
    const query = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (typeof query === "object" && query !== null && !Array.isArray(query) && Number.isInteger((query as SearchConversationsQuery).pageIndex)) return query as SearchConversationsQuery;
  } catch {
    // Reported below.
  }
  throw new TypeError("cursor: expected the nextCursor of a previous search_conversations result");
}
