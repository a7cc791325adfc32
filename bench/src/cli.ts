/**
 * The CLI export: `bot-conversation search --all --output ndjson` over 100,000 conversations of the
 * sandbox (a process of its own), its stdout written to a file, against the client's pager in a
 * process of its own (`cli-pager.ts`) over the same search, in alternating rounds. Budgets: at least
 * 90% of the pager's by CPU time per conversation (the pager's CPU over the CLI's, median of the rounds' ratios;
 * by throughput until issue 50, 80% until issue 42, when the export began writing the records from the text the
 * pager read; throughput is still reported) and a peak RSS of at most 150 MiB. Both processes start the same way:
 * with one compile cache of the run's own, warmed by an uncounted run of each (`startsAlike`), so neither pays for
 * compiling what the other has cached (the pager, a TypeScript file, would otherwise strip its types at every start).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { launchSandbox } from "@bot-conversation/sandbox";
import { cpuSecondsOf, pollPeakRss } from "./proc.ts";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const conversations = 100_000;
const pageSize = "500";
const rounds = 5;
const token = "sandbox-token";
/** The workspace's built command. */
export const cliBin = fileURLToPath(import.meta.resolve("@bot-conversation/cli/package.json").replace(/package\.json$/, "dist/bin.js"));
/** The baseline: the client's pager in a process of its own. */
export const pagerScript = fileURLToPath(new URL("./cli-pager.ts", import.meta.url));

/** The export the section measures: every conversation, as NDJSON, in pages of `size`. */
export const exportArgs = (size: string): string[] => ["search", "--all", "--output", "ndjson", "--page-size", size];

/** The conversations a CLI export wrote: its lines. */
export const linesWritten = (_tail: string, lines: number): number => lines;

/** The conversations the pager counted: the number on its last line. */
export const pagerCount = (tail: string): number => Number(tail.trim().split("\n").at(-1));

/** A process's run: wall time, CPU time, the conversations it wrote or counted, and its peak RSS (VmHWM, polled). */
export interface Run {
  readonly seconds: number;
  /** The process's own CPU time (user + system), from start to exit. */
  readonly cpuSeconds: number;
  readonly count: number;
  readonly peakRssMiB: number;
}

/**
 * The environment that makes every process of a comparison start alike: Node's compile cache in a folder of
 * `scratch` (`NODE_COMPILE_CACHE`: Node turns the cache on there at start, for the pager and the command alike;
 * the command's bin would otherwise keep its own in the system's temporary folder). Warm it with one uncounted run
 * of each before the counted ones: a TypeScript pager's types are then stripped once, not at every start (about
 * 35 ms of CPU a start, some 4% of an export of 100,000), and no counted run writes the cache the others read.
 */
export const startsAlike = (scratch: string): NodeJS.ProcessEnv => ({ NODE_COMPILE_CACHE: join(scratch, "compile-cache") });

/** Runs `node <args>` with its stdout written to a file in `scratch`: its wall and CPU time, peak RSS, and the count `countOf` reads from its output. */
export async function timed(
  scratch: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  countOf: (stdout: string, lines: number) => number,
): Promise<Run> {
  // Stdout goes to a file, as an export does (`> conversations.ndjson`): the bench's own process does not
  // share the two cores with the command while it runs; the lines are counted after.
  const output = join(scratch, "stdout");
  const file = openSync(output, "w");
  const started = performance.now();
  // The CPU of this process's children reaped so far: the one run here is the only child that exits meanwhile.
  const reapedBefore = cpuSecondsOf("self").children;
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", file, "inherit"] });
  closeSync(file);
  const peak = pollPeakRss(child.pid!);
  const [code] = (await once(child, "exit")) as [number | null];
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsOf("self").children - reapedBefore;
  const peakRssMiB = peak.stop();
  const written = readFileSync(output);
  let lines = 0;
  for (let at = written.indexOf(10); at !== -1; at = written.indexOf(10, at + 1)) lines++;
  const tail = written.subarray(-64).toString();
  if (code !== 0) throw new Error(`bench cli: ${args.join(" ")} exited with ${code}`);
  return { seconds, cpuSeconds, count: countOf(tail, lines), peakRssMiB };
}

/** The median of the values (the upper one of an even count). */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Runs the CLI export and the pager baseline in alternating rounds against one sandbox of 100,000 conversations. */
export async function cliExport(): Promise<Section> {
  // The runs' output folder, made when the benchmark runs (not when the bench loads this module), removed after.
  const scratch = mkdtempSync(join(tmpdir(), "bench-cli-"));
  const sandbox = await launchSandbox(["--conversations", String(conversations)], { readyWithinMs: 300_000 }).catch((error: unknown) => {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  });
  try {
    const alike = startsAlike(scratch);
    const env = { ...alike, BOT_CONVERSATION_BASE_URL: sandbox.url, BOT_CONVERSATION_TOKEN: token };
    const cli = () => timed(scratch, [cliBin, ...exportArgs(pageSize)], env, linesWritten);
    const pager = () => timed(scratch, [pagerScript, sandbox.url, token, pageSize], alike, pagerCount);
    // Uncounted: fills the compile cache for both, and the sandbox answers every page once before the rounds.
    await cli();
    await pager();
    const results: { cli: Run; pager: Run }[] = [];
    for (let round = 0; round < rounds; round++) {
      // Alternating order: neither always runs first.
      const first = round % 2 === 0 ? await cli() : await pager();
      const second = round % 2 === 0 ? await pager() : await cli();
      results.push(round % 2 === 0 ? { cli: first, pager: second } : { cli: second, pager: first });
    }
    for (const { cli: cliRun, pager: pagerRun } of results) {
      if (cliRun.count !== conversations || pagerRun.count !== conversations)
        throw new Error(`bench cli: expected ${conversations} conversations; got ${cliRun.count} (CLI), ${pagerRun.count} (pager)`);
    }
    const ratio = median(results.map(({ cli: cliRun, pager: pagerRun }) => pagerRun.cpuSeconds / cliRun.cpuSeconds));
    const throughputRatio = median(results.map(({ cli: cliRun, pager: pagerRun }) => pagerRun.seconds / cliRun.seconds));
    const microsPerConversation = (run: Run) => formatNumber((run.cpuSeconds * 1e6) / conversations, 1);
    const peak = Math.max(...results.map(({ cli: cliRun }) => cliRun.peakRssMiB));
    const perSecond = (run: Run) => formatNumber(conversations / run.seconds);
    return {
      title: "CLI export",
      method: `\`bot-conversation search --all --output ndjson --page-size ${pageSize}\` over ${formatNumber(conversations)} conversations of the sandbox (its own process, on 127.0.0.1), stdout written to a file (as \`> conversations.ndjson\` does), its lines counted after each run; baseline: the client's \`iterateConversations\` in a process of its own over the same search. Both start alike: one compile cache of the run's own (\`NODE_COMPILE_CACHE\`), warmed by an uncounted run of each first, so the pager (a TypeScript file) does not strip its types at every start nor the command compile what the pager has cached. ${rounds} rounds in alternating order; wall time and CPU time (user + system, read from /proc as the bench's reaped children's) include each process's start. The budget compares CPU time per conversation (the pager's over the CLI's); conversations per second are information. Peak RSS is the CLI process's VmHWM.`,
      table: markdownTable(
        [
          "Round",
          "CLI CPU µs per conversation",
          "pager CPU µs per conversation",
          "CLI / pager by CPU",
          "CLI conversations/s",
          "pager conversations/s",
          "CLI / pager by throughput",
          "CLI peak RSS (MiB)",
          "pager peak RSS (MiB)",
        ],
        results.map(({ cli: cliRun, pager: pagerRun }, index) => [
          index + 1,
          microsPerConversation(cliRun),
          microsPerConversation(pagerRun),
          formatNumber(pagerRun.cpuSeconds / cliRun.cpuSeconds, 2),
          perSecond(cliRun),
          perSecond(pagerRun),
          formatNumber(pagerRun.seconds / cliRun.seconds, 2),
          formatNumber(cliRun.peakRssMiB, 1),
          formatNumber(pagerRun.peakRssMiB, 1),
        ]),
      ),
      budgets: [
        {
          name: "CLI NDJSON export at least 90% of the client pager's, by CPU per conversation",
          ok: ratio >= 0.9,
          detail: `median ${formatNumber(ratio * 100, 1)}% (by throughput ${formatNumber(throughputRatio * 100, 1)}%)`,
        },
        { name: "CLI export peak RSS at most 150 MiB", ok: peak <= 150, detail: `${formatNumber(peak, 1)} MiB` },
      ],
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await sandbox.stop();
  }
}
