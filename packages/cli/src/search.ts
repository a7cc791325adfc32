import { setImmediate } from "node:timers/promises";
import { PaginationError } from "@bot-conversation/client";
import type { SearchConversationsQuery } from "@bot-conversation/types";
import { Command, Option } from "commander";
import { type ConnectionFlags, connect, connectionOptions, secrets } from "./connection.js";
import { type Parameter, parametersOf, parameterValue, schemaOf } from "./description.js";
import { type CommandIo, exitCodes, UsageError, write } from "./io.js";
import { type Column, schemaColumns } from "./output/columns.js";
import { type CommandColumns, csvRawOption, type OutputFormat, outputOption, recordWriter } from "./output/format.js";
import { exportProgress } from "./output/progress.js";

/** The search's query parameters, from the description: one flag each. */
export const searchParameters = parametersOf("searchConversations");

/** Flags of `search`. */
interface SearchFlags extends ConnectionFlags {
  readonly output?: OutputFormat;
  readonly all?: boolean;
  readonly limit?: string;
  readonly maxPages?: string;
  readonly csvRaw?: boolean;
  readonly [parameter: string]: unknown;
}

const field = (name: string): Column => ({ header: name, get: (record) => (record as Record<string, unknown>)[name] });

/** Columns of the conversations: a short table, and every field of the description's summary in CSV. */
export const conversationColumns: CommandColumns = {
  table: ["id", "status", "channelId", "messagesCount", "startedOn", "latestMessageOn", "latestMessageText"].map(field),
  csv: schemaColumns(schemaOf("ConversationSummary")),
};

/** The query of the given flags, each value read and checked by its parameter's schema. */
export async function searchQuery(flags: Readonly<Record<string, unknown>>): Promise<SearchConversationsQuery> {
  const query: Record<string, string | number> = {};
  for (const parameter of searchParameters) {
    const text = flags[parameter.name];
    if (typeof text !== "string") continue;
    try {
      query[parameter.name] = await parameterValue(parameter, text);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return query as SearchConversationsQuery;
}

/**
 * The flag of a query parameter: named and described by the description; an enumeration's values
 * (`--status`'s) listed from its schema in the help and offered by shell completion. The value is
 * checked by its schema when the command runs (`searchQuery`), in the CLI's one wording.
 */
function parameterOption(parameter: Parameter): Option {
  const option = new Option(`${parameter.flag} <${parameter.schema["type"] === "integer" ? "n" : "value"}>`, parameter.description.split("\n")[0] ?? "");
  const values = parameter.schema["enum"];
  if (Array.isArray(values)) option.argChoices = values.map(String);
  return option;
}

/** Reads `--limit` or `--max-pages`: a whole number of at least 1. */
function countOf(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${flag}: expected an integer of at least 1; got ${JSON.stringify(text)}`);
  return Number(text);
}

/** The `search` command. */
export function newSearchCommand(io: CommandIo, done: (code: number) => void): Command {
  const command = new Command("search").description("Find conversations: one page, or every page with --all (streamed, a progress bar on a terminal).");
  for (const parameter of searchParameters) command.addOption(parameterOption(parameter));
  connectionOptions(command)
    .option("--all", "follow every page to the end (streams; memory stays flat)")
    .option("--limit <n>", "stop after this many conversations (follows pages as needed)")
    .option("--max-pages <n>", "read at most this many pages; more left is an error (default: no bound but the envelope's totalPageCount)")
    .addOption(outputOption())
    .addOption(csvRawOption())
    .addHelpText(
      "after",
      "\nExample:\n  bot-conversation search --status Active --start-from-date 2026-11-18T00:00:00Z --all --output csv > conversations.csv\n",
    )
    .action(async (flags: SearchFlags) => done(await search(flags, io)));
  return command;
}

async function search(flags: SearchFlags, io: CommandIo): Promise<number> {
  const query = await searchQuery(flags);
  const limit = countOf("--limit", flags.limit);
  const maxPages = countOf("--max-pages", flags.maxPages);
  const { client } = connect(flags, io);
  const writer = recordWriter(flags.output, io.stdout, conversationColumns, { secrets: [...secrets], csvRaw: flags.csvRaw });
  // Each page's text as the client read it, by the page it was checked into: NDJSON writes the records from it.
  // Taken out once its page is written (a WeakMap would keep each text until a full collection: memory grew by pages).
  const pageTexts = new Map<unknown, string>();
  const onResponse = (_response: Response, text: string, page: unknown) => void pageTexts.set(page, text);
  const textOf = (page: unknown): string | undefined => {
    const text = pageTexts.get(page);
    pageTexts.delete(page);
    return text;
  };
  if (!flags.all && limit === undefined) {
    const page = await client.searchConversations(query, { signal: io.signal, onResponse });
    await writer.write(page.items, textOf(page));
    await writer.end();
    // On a terminal, where the rest is: a pipe gets the records only.
    if (page.hasMore && io.stdout.isTTY && io.stderr.isTTY) {
      await write(
        io.stderr,
        `${page.items.length} of ${page.totalItemCount} conversations; the next page: --page-index ${page.pageIndex + 1}; every page: --all\n`,
      );
    }
    return exitCodes.ok;
  }
  const progress = await exportProgress(io.stderr, io.stdout);
  // The client's pager, one page ahead: the next page's request is under way while this one is written.
  // Each next page is the returned pageIndex + 1, checked; a Ctrl-C aborts the request in flight. The
  // pager ends with PaginationError when a page passes the envelope's totalItemCount or totalPageCount.
  const pages = client.iterateConversationPages(query, { signal: io.signal, onResponse, ...(maxPages ? { maxPages } : {}) });
  let count = 0;
  let more = false;
  try {
    let next = pages.next();
    for (let result = await next; !result.done; result = await next) {
      const page = result.value;
      const items = limit === undefined ? page.items : page.items.slice(0, limit - count);
      const last = limit !== undefined && count + items.length >= limit;
      more = page.hasMore;
      if (!last) {
        next = pages.next();
        // Awaited on the next turn of the loop; until then, a failure must not count as unhandled.
        next.catch(() => {});
        // The request goes out on a later turn of the event loop: let it leave before this page is written,
        // so the server prepares the next page meanwhile (written first, the page held the request back).
        await setImmediate();
      }
      // Every item of the page: written from its text; a part of it (--limit): serialised.
      const text = textOf(page);
      await writer.write(items, items.length === page.items.length ? text : undefined);
      count += items.length;
      progress.update(count, Math.min(page.totalItemCount, limit ?? Infinity));
      if (last) break;
    }
  } finally {
    progress.stop();
    await pages.return();
  }
  await writer.end();
  // The pager ended quietly at --max-pages: pages were left, which the export must not hide.
  if (maxPages !== undefined && more && (limit === undefined || count < limit)) {
    throw new PaginationError(`--max-pages ${maxPages} reached and the server says more pages follow; raise --max-pages to read them`);
  }
  return exitCodes.ok;
}
