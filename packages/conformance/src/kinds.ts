/**
 * Conversations chosen across their kinds: one of each channel and status before a second of any, so a rule broken
 * for one channel or one status only (a summary field, a date written for one channel) is met by a bounded number of
 * requests. The export route and the date periods around conversations read their conversations from here.
 */

/** At most `limit` of `items` (id and summary), one of each channel and status first, in the order they were seen. */
export function acrossKinds(items: Iterable<readonly [string, Readonly<Record<string, unknown>>]>, limit: number): string[] {
  const kinds = new Map<string, string[]>();
  for (const [id, item] of items) {
    const kind = `${String(item["channelId"])} ${String(item["status"])}`;
    kinds.set(kind, [...(kinds.get(kind) ?? []), id]);
  }
  const chosen: string[] = [];
  for (let round = 0; chosen.length < limit && [...kinds.values()].some((ids) => ids.length > round); round++)
    for (const ids of kinds.values()) if (ids[round] !== undefined && chosen.length < limit) chosen.push(ids[round]!);
  return chosen;
}
