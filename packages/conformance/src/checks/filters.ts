import type { ConversationSummary } from "@bot-conversation/types";
import { pageOf } from "./paging.ts";
import { shown, type ExchangeCheck } from "./types.ts";

/** How an item matches one search filter; returns what differs, or undefined. */
const filters: Record<string, (item: ConversationSummary, value: string) => string | undefined> = {
  status: (item, value) => (item.status === value ? undefined : `status ${shown(item.status)} is not ${shown(value)}`),
  channelId: (item, value) => (item.channelId === value ? undefined : `channelId ${shown(item.channelId)} is not ${shown(value)}`),
  startFromDate: (item, value) => (Date.parse(item.startedOn) >= Date.parse(value) ? undefined : `startedOn ${item.startedOn} is before ${value}`),
  startToDate: (item, value) => (Date.parse(item.startedOn) <= Date.parse(value) ? undefined : `startedOn ${item.startedOn} is after ${value}`),
  latestMessageFromDate: (item, value) =>
    Date.parse(item.latestMessageOn) >= Date.parse(value) ? undefined : `latestMessageOn ${item.latestMessageOn} is before ${value}`,
  latestMessageToDate: (item, value) =>
    Date.parse(item.latestMessageOn) <= Date.parse(value) ? undefined : `latestMessageOn ${item.latestMessageOn} is after ${value}`,
};

/** Every item of a filtered search matches each filter sent (`status`, `channelId`, the date ranges, bounds included). */
export const filterMatch: ExchangeCheck = (exchange) => {
  const page = pageOf(exchange);
  if (!page) return undefined;
  const problems = page.items.flatMap((item) =>
    Object.entries(exchange.case.query).flatMap(([name, value]) => {
      const problem = filters[name]?.(item, value);
      return problem ? [`item ${shown(item.id)}: ${problem}`] : [];
    }),
  );
  return problems.length === 0 ? undefined : `expected every item to match the filters; ${problems.slice(0, 3).join("; ")}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ""}`;
};
