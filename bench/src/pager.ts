/**
 * The auto-pager against a hand-written page loop with openapi-fetch: both read 10,000
 * conversations in pages of 100 from a local node:http server. Rounds alternate the order of the
 * two, and the budget compares medians.
 */
import { performance } from "node:perf_hooks";
import { createBotConversationClient } from "@bot-conversation/client";
import type { paths } from "@bot-conversation/types";
import createClient from "openapi-fetch";
import { benchmarkToken, exampleValue, type ConversationPage } from "./fixtures.ts";
import { listenOnLoopback } from "./loopback.ts";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";

const conversationCount = 10_000;
const pageSize = 100;
const rounds = 15;
const searchPath = "/api/v2/channels/conversations";

/** Every page serialized once, so the server's cost is the same for both readers. */
function preparedPages(): string[] {
  const template = exampleValue<ConversationPage>("ConversationPageFirst");
  const summary = template.items[0]!;
  const pageCount = conversationCount / pageSize;
  return Array.from({ length: pageCount }, (_, pageIndex) =>
    JSON.stringify({
      ...template,
      items: Array.from({ length: pageSize }, (_, offset) => ({ ...summary, id: `conversation-${pageIndex * pageSize + offset}` })),
      hasMore: pageIndex < pageCount - 1,
      pageIndex,
      pageSize,
      totalItemCount: conversationCount,
      totalPageCount: pageCount,
      fromItemInclusive: pageIndex * pageSize,
      toItemExclusive: (pageIndex + 1) * pageSize,
    }),
  );
}

async function timed(read: () => Promise<number>): Promise<number> {
  const start = performance.now();
  const count = await read();
  const elapsed = performance.now() - start;
  if (count !== conversationCount) throw new Error(`read ${count} conversations, expected ${conversationCount}`);
  return elapsed;
}

/** Runs the auto-pager comparison. */
export async function autoPager(): Promise<Section> {
  const pages = preparedPages();
  const server = await listenOnLoopback((request, response) => {
    const pageIndex = Number(new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("pageIndex") ?? 0);
    response.writeHead(200, { "content-type": "application/json" }).end(pages[pageIndex]);
  });
  try {
    const openapiFetch = createClient<paths>({ baseUrl: server.url, headers: { "X-Token": benchmarkToken } });
    const ours = createBotConversationClient({ baseUrl: server.url, token: benchmarkToken });
    const handWritten = async (): Promise<number> => {
      let count = 0;
      let pageIndex: number | undefined;
      for (;;) {
        const { data, error } = await openapiFetch.GET(searchPath, { params: { query: pageIndex === undefined ? { pageSize } : { pageSize, pageIndex } } });
        if (!data) throw new Error(`page ${pageIndex ?? 0} failed: ${JSON.stringify(error)}`);
        count += data.items.length;
        if (!data.hasMore) return count;
        pageIndex = data.pageIndex + 1;
      }
    };
    const autoPaged = async (): Promise<number> => {
      let count = 0;
      for await (const conversation of ours.iterateConversations({ pageSize })) if (conversation.id) count += 1;
      return count;
    };
    await timed(handWritten);
    await timed(autoPaged);
    const loopTimes: number[] = [];
    const pagerTimes: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which reader goes first, so neither always meets a warmer server.
      if (round % 2 === 0) {
        loopTimes.push(await timed(handWritten));
        pagerTimes.push(await timed(autoPaged));
      } else {
        pagerTimes.push(await timed(autoPaged));
        loopTimes.push(await timed(handWritten));
      }
    }
    const loop = median(loopTimes);
    const pager = median(pagerTimes);
    const ratio = pager / loop;
    return {
      title: "Auto-pager",
      method: `${formatNumber(conversationCount)} conversations in pages of ${pageSize} from a node:http server on 127.0.0.1; ${rounds} alternating rounds after one warm-up each, medians compared.`,
      table: markdownTable(
        ["Reader", "median ms", "min ms", "max ms", "vs loop"],
        [
          ["hand-written loop, openapi-fetch", formatNumber(loop, 1), formatNumber(Math.min(...loopTimes), 1), formatNumber(Math.max(...loopTimes), 1), "1.00x"],
          ["iterateConversations", formatNumber(pager, 1), formatNumber(Math.min(...pagerTimes), 1), formatNumber(Math.max(...pagerTimes), 1), `${formatNumber(ratio, 3)}x`],
        ],
      ),
      budgets: [{ name: "auto-pager at most 1.05x the hand-written loop", ok: ratio <= 1.05, detail: `${formatNumber(ratio, 3)}x (${formatNumber(pager, 1)} ms vs ${formatNumber(loop, 1)} ms)` }],
    };
  } finally {
    await server.close();
  }
}
