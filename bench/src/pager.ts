/**
 * The auto-pager against a hand-written page loop with openapi-fetch: both read 10,000
 * conversations in pages of 100 from a local node:http server, and both look at every conversation.
 * Each reader runs in a process of its own (pager-reader.ts), so neither shares a heap, a JIT state or
 * a connection pool with the other; processes alternate, and the budget is the median of the ratios
 * of the adjacent pairs' medians.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { exampleValue, type ConversationPage } from "./fixtures.ts";
import { listenOnLoopback } from "./loopback.ts";
import { pageSize, type readers } from "./pager-reader.ts";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";

const conversationCount = 10_000;
const rounds = 9;
const readerScript = fileURLToPath(new URL("./pager-reader.ts", import.meta.url));

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

/** Runs one reader in a fresh process and returns the median of its timed reads, in ms. */
async function readerMedian(name: keyof typeof readers, baseUrl: string): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [readerScript, name, baseUrl, String(conversationCount)]);
  return median(JSON.parse(stdout) as number[]);
}

/** Runs the auto-pager comparison. */
export async function autoPager(): Promise<Section> {
  const pages = preparedPages();
  const server = await listenOnLoopback((request, response) => {
    const pageIndex = Number(new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("pageIndex") ?? 0);
    response.writeHead(200, { "content-type": "application/json" }).end(pages[pageIndex]);
  });
  try {
    const loopTimes: number[] = [];
    const pagerTimes: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which reader goes first, so neither always meets a warmer server.
      const order: (keyof typeof readers)[] = round % 2 === 0 ? ["loop", "pager"] : ["pager", "loop"];
      for (const name of order) (name === "loop" ? loopTimes : pagerTimes).push(await readerMedian(name, server.url));
    }
    const loop = median(loopTimes);
    const pager = median(pagerTimes);
    const ratio = median(pagerTimes.map((time, round) => time / loopTimes[round]!));
    return {
      title: "Auto-pager",
      method: `${formatNumber(conversationCount)} conversations in pages of ${pageSize} from a node:http server on 127.0.0.1, each conversation looked at by both readers. Each reader runs in a fresh process (3 warm-up reads, then the median of 30); ${rounds} rounds alternate which goes first. "vs loop" is the median of the rounds' ratios.`,
      table: markdownTable(
        ["Reader", "median ms", "min ms", "max ms", "vs loop"],
        [
          ["hand-written loop, openapi-fetch", formatNumber(loop, 1), formatNumber(Math.min(...loopTimes), 1), formatNumber(Math.max(...loopTimes), 1), "1.00x"],
          ["iterateConversations", formatNumber(pager, 1), formatNumber(Math.min(...pagerTimes), 1), formatNumber(Math.max(...pagerTimes), 1), `${formatNumber(ratio, 3)}x`],
        ],
      ),
      budgets: [{ name: "auto-pager at most 1.05x the hand-written loop", ok: ratio <= 1.05, detail: `${formatNumber(ratio, 3)}x (medians ${formatNumber(pager, 1)} ms vs ${formatNumber(loop, 1)} ms)` }],
    };
  } finally {
    await server.close();
  }
}
