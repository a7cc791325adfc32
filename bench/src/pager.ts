/**
 * The auto-pager against a hand-written page loop with openapi-fetch: each reads 10,000
 * conversations in pages of 100 from a local node:http server and looks at every conversation. Each
 * reader runs in a process of its own (pager-reader.ts), so none shares a heap, a JIT state or a
 * connection pool with another; rounds rotate the order, and the budget is the median of the rounds'
 * ratios. The page iterator is measured too, to show what the per-conversation iteration costs.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { exampleValue, type ConversationPage } from "./fixtures.ts";
import { listenOnLoopback } from "./loopback.ts";
import { pageSize, reads, warmUps, type readers } from "./pager-reader.ts";
import { formatNumber, markdownTable, median, type Section } from "./report.ts";

const conversationCount = 10_000;
const rounds = 7;
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
    const times: Record<keyof typeof readers, number[]> = { loop: [], pages: [], pager: [] };
    const names = Object.keys(times) as (keyof typeof readers)[];
    for (let round = 0; round < rounds; round += 1) {
      // Rotate which reader goes first, so none always meets a warmer server.
      for (let offset = 0; offset < names.length; offset += 1) {
        const name = names[(round + offset) % names.length]!;
        times[name].push(await readerMedian(name, server.url));
      }
    }
    const toLoop = (name: keyof typeof readers): number => median(times[name].map((time, round) => time / times.loop[round]!));
    const row = (label: string, name: keyof typeof readers): string[] => [
      label,
      formatNumber(median(times[name]), 1),
      formatNumber(Math.min(...times[name]), 1),
      formatNumber(Math.max(...times[name]), 1),
      `${formatNumber(toLoop(name), 3)}x`,
    ];
    const ratio = toLoop("pager");
    return {
      title: "Auto-pager",
      method: `${formatNumber(conversationCount)} conversations in pages of ${pageSize} from a node:http server on 127.0.0.1, each conversation looked at by every reader. Each reader runs in a fresh process (${warmUps} warm-up reads, then the median of ${reads}); ${rounds} rounds rotate which goes first. "vs loop" is the median of the rounds' ratios to the loop.`,
      table: markdownTable(
        ["Reader", "median ms", "min ms", "max ms", "vs loop"],
        [row("hand-written loop, openapi-fetch", "loop"), row("iterateConversationPages, a plain loop over each page", "pages"), row("iterateConversations (the budget)", "pager")],
      ),
      budgets: [{ name: "auto-pager at most 1.05x the hand-written loop", ok: ratio <= 1.05, detail: `${formatNumber(ratio, 3)}x (medians ${formatNumber(median(times.pager), 1)} ms vs ${formatNumber(median(times.loop), 1)} ms)` }],
    };
  } finally {
    await server.close();
  }
}
