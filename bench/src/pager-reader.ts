/**
 * One side of the auto-pager benchmark, in a process of its own (spawned by pager.ts): reads every
 * conversation from the server at argv[3] with the reader named by argv[2], a few times to warm up,
 * then `reads` times, and prints the elapsed milliseconds of each timed read as JSON.
 */
import { performance } from "node:perf_hooks";
import { createBotConversationClient } from "@bot-conversation/client";
import type { paths } from "@bot-conversation/types";
import createClient from "openapi-fetch";
import { benchmarkToken } from "./fixtures.ts";

const searchPath = "/api/v2/channels/conversations";
export const pageSize = 100;
export const warmUps = 3;
export const reads = 30;

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

if (process.argv[1] === import.meta.filename) {
  const [name, baseUrl, expected] = process.argv.slice(2) as [keyof typeof readers, string, string];
  const read = readers[name](baseUrl);
  const times: number[] = [];
  for (let run = 0; run < warmUps + reads; run += 1) {
    const start = performance.now();
    const count = await read();
    if (run >= warmUps) times.push(performance.now() - start);
    if (count !== Number(expected)) throw new Error(`${name} read ${count} conversations, expected ${expected}`);
  }
  process.stdout.write(JSON.stringify(times));
}
