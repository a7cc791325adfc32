/**
 * One reader of the auto-pager benchmark, in a process of its own (spawned by pager.ts): for each line
 * on stdin it reads every conversation from the server at argv[3] with the reader named by argv[2], and
 * writes the elapsed milliseconds as a line on stdout. The parent decides when each reader reads, so
 * the readers take turns and share whatever the machine is doing at the time.
 */
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { createBotConversationClient } from "@bot-conversation/client";
import type { paths } from "@bot-conversation/types";
import createClient from "openapi-fetch";
import { benchmarkToken } from "./fixtures.ts";

const searchPath = "/api/v2/channels/conversations";
export const pageSize = 100;

/** The readers, each built for a base address: each read returns how many conversations it looked at. */
export const readers = {
  /** A hand-written page loop with openapi-fetch that looks at every conversation. */
  loop: (baseUrl: string) => {
    const client = createClient<paths>({ baseUrl, headers: { "X-Token": benchmarkToken } });
    return async (): Promise<number> => {
      let count = 0;
      let pageIndex: number | undefined;
      for (;;) {
        const { data, error } = await client.GET(searchPath, { params: { query: pageIndex === undefined ? { pageSize } : { pageSize, pageIndex } } });
        if (!data) throw new Error(`page ${pageIndex ?? 0} failed: ${JSON.stringify(error)}`);
        for (const conversation of data.items) if (conversation.id) count += 1;
        if (!data.hasMore) return count;
        pageIndex = data.pageIndex + 1;
      }
    };
  },
  /** The client's page iterator, looking at every conversation of each page in a plain loop. */
  pages: (baseUrl: string) => {
    const client = createBotConversationClient({ baseUrl, token: benchmarkToken });
    return async (): Promise<number> => {
      let count = 0;
      for await (const page of client.iterateConversationPages({ pageSize })) for (const conversation of page.items) if (conversation.id) count += 1;
      return count;
    };
  },
  /** The client's auto-pager, one conversation at a time. */
  pager: (baseUrl: string) => {
    const client = createBotConversationClient({ baseUrl, token: benchmarkToken });
    return async (): Promise<number> => {
      let count = 0;
      for await (const conversation of client.iterateConversations({ pageSize })) if (conversation.id) count += 1;
      return count;
    };
  },
};

/** The name of a reader. */
export type ReaderName = keyof typeof readers;

if (process.argv[1] === import.meta.filename) {
  const [name, baseUrl, expected] = process.argv.slice(2) as [ReaderName, string, string];
  const read = readers[name](baseUrl);
  for await (const _request of createInterface({ input: process.stdin })) {
    const start = performance.now();
    const count = await read();
    const elapsed = performance.now() - start;
    if (count !== Number(expected)) throw new Error(`${name} read ${count} conversations, expected ${expected}`);
    process.stdout.write(`${elapsed}\n`);
  }
}
