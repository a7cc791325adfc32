/**
 * The auto-pager against a hand-written page loop with openapi-fetch: each reads 10,000 conversations
 * in pages of 100 from a local node:http server and looks at every conversation. Each reader runs in
 * a process of its own (pager-reader.ts), so none shares a heap, a JIT state or a connection pool with
 * another, and the readers take turns read by read, so each turn's ratio to the loop compares reads
 * made within a second of each other. A process keeps much of its speed for life, and two processes of
 * the same code can differ by 10% on this machine, so the reads of one process are not independent
 * samples: each set of fresh processes gives one ratio (the median of its turns), and the figure is the
 * median of the sets' ratios, with an interval over the sets. A second loop process is a control: its
 * ratio to the first shows what the method cannot tell apart.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { exampleValue, type ConversationPage } from "./fixtures.ts";
import { listenOnLoopback } from "./loopback.ts";
import { pageSize, type ReaderName } from "./pager-reader.ts";
import { formatNumber, markdownTable, median, medianWithInterval, type Section } from "./report.ts";

const conversationCount = 10_000;
/** Fresh sets of reader processes, one after another: the independent samples. */
const processSets = 10;
/** Reads of each reader before its turns are timed. */
const warmUps = 3;
/** Timed turns per set: in each, every reader reads once, in an order that rotates. */
const turns = 30;
const readerScript = fileURLToPath(new URL("./pager-reader.ts", import.meta.url));

/** The readers measured, by row: `reader` is what runs, `label` the row of the table. */
const rows: { key: string; reader: ReaderName; label: string }[] = [
  { key: "loop", reader: "loop", label: "hand-written loop, openapi-fetch (the baseline)" },
  { key: "control", reader: "loop", label: "the same loop in another process (control)" },
  { key: "pages", reader: "pages", label: "iterateConversationPages, a plain loop over each page" },
  { key: "pager", reader: "pager", label: "iterateConversations (the budget)" },
];

/** Every page serialized and encoded once, so the server does as little as it can, the same for every reader. */
function preparedPages(): Buffer[] {
  const template = exampleValue<ConversationPage>("ConversationPageFirst");
  const summary = template.items[0]!;
  const pageCount = conversationCount / pageSize;
  return Array.from({ length: pageCount }, (_, pageIndex) =>
    Buffer.from(
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

/** A reader process: `read` has it read everything once and resolves to the milliseconds it took. */
function startReader(reader: ReaderName, baseUrl: string) {
  const child = spawn(process.execPath, [readerScript, reader, baseUrl, String(conversationCount)], { stdio: ["pipe", "pipe", "pipe"] });
  let errors = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return {
    async read(): Promise<number> {
      child.stdin.write("read\n");
      const line = await lines.next();
      if (line.done) throw new Error(`the ${reader} reader stopped: ${errors.trim() || `exit code ${child.exitCode}`}`);
      return Number(line.value);
    },
    /** Ends the process (its stdin closes, so it leaves its read loop) and waits until it has exited. */
    async stop(): Promise<void> {
      child.stdin.end();
      await exited;
    },
  };
}

/** Runs the auto-pager comparison. */
export async function autoPager(): Promise<Section> {
  const pages = preparedPages();
  const server = await listenOnLoopback((request, response) => {
    const pageIndex = Number(new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("pageIndex") ?? 0);
    const page = pages[pageIndex]!;
    response.writeHead(200, { "content-type": "application/json", "content-length": page.length }).end(page);
  });
  const times = new Map(rows.map(({ key }) => [key, [] as number[]]));
  // Per reader, one ratio to the loop per set of processes.
  const ratios = new Map(rows.map(({ key }) => [key, [] as number[]]));
  try {
    for (let set = 0; set < processSets; set += 1) {
      const running = rows.map((row) => ({ ...row, process: startReader(row.reader, server.url) }));
      try {
        for (let read = 0; read < warmUps; read += 1) for (const { process } of running) await process.read();
        const setRatios = new Map(rows.map(({ key }) => [key, [] as number[]]));
        for (let turn = 0; turn < turns; turn += 1) {
          const turnTimes = new Map<string, number>();
          // Rotate who reads first, so none always follows the same reader.
          for (let offset = 0; offset < running.length; offset += 1) {
            const { key, process } = running[(turn + offset) % running.length]!;
            turnTimes.set(key, await process.read());
          }
          for (const { key } of rows) {
            times.get(key)!.push(turnTimes.get(key)!);
            setRatios.get(key)!.push(turnTimes.get(key)! / turnTimes.get("loop")!);
          }
        }
        for (const { key } of rows) ratios.get(key)!.push(median(setRatios.get(key)!));
      } finally {
        await Promise.all(running.map(({ process }) => process.stop()));
      }
    }
  } finally {
    await server.close();
  }
  const toLoop = (key: string) => medianWithInterval(ratios.get(key)!);
  const formatRatio = (ratio: number): string => `${formatNumber(ratio, 3)}x`;
  const pager = toLoop("pager");
  const control = toLoop("control");
  return {
    title: "Auto-pager",
    method: `${formatNumber(conversationCount)} conversations in pages of ${pageSize} from a node:http server on 127.0.0.1, each conversation looked at by every reader. Each reader runs in a process of its own; ${processSets} sets of fresh processes, each warmed up with ${warmUps} reads, then ${turns} turns in which every reader reads once, in rotating order. A set's ratio is the median of its turns' ratios to the loop's read of the same turn; "vs loop" is the median of the ${processSets} sets' ratios, with a distribution-free 95% confidence interval. Single reads of the same code vary by ±20% on this machine and a process keeps much of its own speed, so only the sets are independent samples; the control row is the loop against itself, and shows how far apart two identical readers land.`,
    table: markdownTable(
      ["Reader", "median ms", "vs loop", "95% interval"],
      rows.map(({ key, label }) => {
        const ratio = toLoop(key);
        return [label, formatNumber(median(times.get(key)!), 1), formatRatio(ratio.median), key === "loop" ? "" : `${formatRatio(ratio.low)} to ${formatRatio(ratio.high)}`];
      }),
    ),
    budgets: [
      {
        name: "auto-pager at most 1.05x the hand-written loop",
        ok: pager.median <= 1.05,
        detail: `${formatRatio(pager.median)} (95% interval ${formatRatio(pager.low)} to ${formatRatio(pager.high)}${pager.low <= 1.05 && pager.high > 1.05 ? ", across the line" : ""}; the loop against itself ${formatRatio(control.median)})`,
      },
    ],
  };
}
