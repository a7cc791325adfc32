/**
 * The auto-pager's own cost, in process: 10,000 conversations in pages of 100, read through a `fetch`
 * that answers each page with prepared bytes, by a hand-written page loop with openapi-fetch and by the
 * client's iterators, each looking at every conversation. The difference of their means, per
 * conversation, is what `iterateConversations` costs over the loop, in nanoseconds on this machine.
 * (An earlier version compared readers in separate processes over loopback; on this machine that
 * method could not resolve 5%, so it is retired.)
 */
import { cpus } from "node:os";
import { createBotConversationClient } from "@bot-conversation/client";
import type { paths } from "@bot-conversation/types";
import createClient from "openapi-fetch";
import { benchmarkToken, type ConversationPage, exampleValue } from "./fixtures.ts";
import { formatNumber, markdownTable, measureRounds, type Section } from "./report.ts";

const baseUrl = "http://127.0.0.1:4010";
const searchPath = "/api/v2/channels/conversations";
const conversationCount = 10_000;
const pageSize = 100;
/** Rounds of 1 s per reader, in rotating order. */
const rounds = 6;

/** Every page serialized and encoded once, the same for every reader. */
function preparedPages(): Uint8Array<ArrayBuffer>[] {
  const template = exampleValue<ConversationPage>("ConversationPageFirst");
  const summary = template.items[0]!;
  const pageCount = conversationCount / pageSize;
  const encoder = new TextEncoder();
  return Array.from({ length: pageCount }, (_, pageIndex) =>
    encoder.encode(
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
    ),
  );
}

/** The readers: each read returns how many conversations it looked at. */
function readers(): Record<string, () => Promise<number>> {
  const pages = preparedPages();
  const headers = { "content-type": "application/json" };
  const fetch = async (request: Request): Promise<Response> =>
    new Response(pages[Number(new URL(request.url).searchParams.get("pageIndex") ?? 0)], { headers });
  const loopClient = createClient<paths>({ baseUrl, fetch, headers: { "X-Token": benchmarkToken } });
  const client = createBotConversationClient({ baseUrl, token: benchmarkToken, fetch });
  return {
    "hand-written loop, openapi-fetch (the baseline)": async () => {
      let count = 0;
      let pageIndex: number | undefined;
      for (;;) {
        const { data, error } = await loopClient.GET(searchPath, { params: { query: pageIndex === undefined ? { pageSize } : { pageSize, pageIndex } } });
        if (!data) throw new Error(`page ${pageIndex ?? 0} failed: ${JSON.stringify(error)}`);
        for (const conversation of data.items) if (conversation.id) count += 1;
        if (!data.hasMore) return count;
        pageIndex = data.pageIndex + 1;
      }
    },
    "iterateConversationPages, a plain loop over each page": async () => {
      let count = 0;
      for await (const page of client.iterateConversationPages({ pageSize })) for (const conversation of page.items) if (conversation.id) count += 1;
      return count;
    },
    iterateConversations: async () => {
      let count = 0;
      for await (const conversation of client.iterateConversations({ pageSize })) if (conversation.id) count += 1;
      return count;
    },
  };
}

/** Measures each reader and reports the cost per conversation over the loop. */
export async function autoPager(): Promise<Section> {
  const tasks = readers();
  for (const [name, read] of Object.entries(tasks)) {
    const count = await read();
    if (count !== conversationCount) throw new Error(`${name} read ${count} conversations, expected ${conversationCount}`);
  }
  const results = await measureRounds(Object.fromEntries(Object.entries(tasks).map(([name, read]) => [name, async () => void (await read())])), {
    rounds,
    timeMs: 1_000,
  });
  const nsPerConversation = (meanMs: number): number => (meanMs * 1e6) / conversationCount;
  const loop = nsPerConversation(results[0]!.meanMs);
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}`;
  return {
    title: "Auto-pager",
    method: `In process, on ${machine}: tinybench, ${rounds} rounds of 1 s per reader after 0.5 s warm-up, in rotating order; the figure is the median of the rounds' means. Each read is ${formatNumber(conversationCount)} conversations in pages of ${pageSize}, through a \`fetch\` that answers each page with prepared bytes (the description's \`firstPage\` example, repeated), and looks at every conversation. "Over the loop" is the reader's mean minus the loop's, per conversation; it is reported, not budgeted.`,
    table: markdownTable(
      ["Reader", "ms per read", "ns per conversation", "over the loop, ns per conversation", "slowest / fastest round"],
      results.map((result, index) => [
        result.name,
        formatNumber(result.meanMs, 2),
        formatNumber(nsPerConversation(result.meanMs)),
        index === 0 ? "" : formatNumber(nsPerConversation(result.meanMs) - loop),
        `${formatNumber(result.spread, 2)}x`,
      ]),
    ),
    budgets: [],
  };
}
