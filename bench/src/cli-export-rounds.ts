/**
 * The CLI export's CPU per conversation against the pager's, for this tree's built command and, optionally,
 * other builds of it, in the same run: `node src/cli-export-rounds.ts [--before <tree>] [--rounds 6]
 * [--conversations 100000] [--page-size 500]`. One sandbox (this tree's) serves every run; each round runs the
 * pager (`cli-pager.ts`) and each build's `bot-conversation search --all --output ndjson` once, in an order that
 * turns with the round, stdout to a file, as the bench's "CLI export" section does (`timed` of `cli.ts`). It prints
 * each run's CPU µs per conversation, peak RSS and the machine's 1-minute load when it ended (every process started
 * alike, `startsAlike`, after one uncounted run of each), then each build's
 * share of the pager (the pager's CPU over the build's, round by round, and their median) and each build over the
 * first. `--conversations 1` measures what the processes' start costs (one page of one conversation). Not part
 * of `pnpm bench`: a tool for the change at hand; it reads the other trees' `packages/cli/dist/bin.js` and writes
 * nothing inside them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { launchSandbox } from "@bot-conversation/sandbox";
import { cliBin, exportArgs, linesWritten, median, pagerCount, pagerScript, type Run, startsAlike, timed } from "./cli.ts";
import { formatNumber, markdownTable } from "./report.ts";
import { turningOrder } from "./sandbox-rounds.ts";

const token = "sandbox-token";

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      before: { type: "string", multiple: true },
      rounds: { type: "string", default: "6" },
      conversations: { type: "string", default: "100000" },
      "page-size": { type: "string", default: "500" },
    },
  });
  const rounds = Number(values.rounds);
  const conversations = Number(values.conversations);
  const pageSize = values["page-size"];
  const builds = [
    { name: "after (this tree)", bin: cliBin },
    ...(values.before ?? []).map((tree) => ({ name: `before (${tree})`, bin: join(resolve(tree), "packages/cli/dist/bin.js") })),
  ];
  const scratch = mkdtempSync(join(tmpdir(), "bench-cli-rounds-"));
  const sandbox = await launchSandbox(["--conversations", String(conversations)], { readyWithinMs: 300_000 });
  try {
    const alike = startsAlike(scratch);
    const env = { ...alike, BOT_CONVERSATION_BASE_URL: sandbox.url, BOT_CONVERSATION_TOKEN: token };
    const runners = [
      { name: "pager", run: () => timed(scratch, [pagerScript, sandbox.url, token, pageSize], alike, pagerCount) },
      ...builds.map(({ name, bin }) => ({ name, run: () => timed(scratch, [bin, ...exportArgs(pageSize)], env, linesWritten) })),
    ];
    // Uncounted, as the section does: the compile cache filled for every process.
    for (const runner of runners) await runner.run();
    const runs: { run: Run; load: number }[][] = runners.map(() => []);
    const rows: (string | number)[][] = [];
    for (let round = 0; round < rounds; round++) {
      for (const index of turningOrder(round, runners.length)) {
        const run = await runners[index]!.run();
        if (run.count !== conversations) throw new Error(`${runners[index]!.name}: expected ${conversations} conversations; got ${run.count}`);
        const load = loadavg()[0]!;
        runs[index]!.push({ run, load });
        rows.push([
          round + 1,
          runners[index]!.name,
          formatNumber((run.cpuSeconds * 1e6) / conversations, 2),
          formatNumber(run.cpuSeconds * 1000, 0),
          formatNumber(run.peakRssMiB, 1),
          formatNumber(load, 2),
        ]);
      }
    }
    console.log(markdownTable(["Round", "Process", "CPU µs per conversation", "CPU ms", "peak RSS (MiB)", "load (1 min) after"], rows));
    console.log();
    const ratioRows = runners.slice(1).flatMap((runner, offset) => {
      const own = runs[offset + 1]!;
      const ratios = (baseline: { run: Run }[]) => own.map(({ run }, round) => baseline[round]!.run.cpuSeconds / run.cpuSeconds);
      const row = (name: string, values: number[]) => [
        name,
        `**${formatNumber(median(values), 3)}**`,
        values.map((value) => formatNumber(value, 3)).join(", "),
      ];
      return [
        row(`${runner.name}: the pager's CPU over its own`, ratios(runs[0]!)),
        ...(offset === 0
          ? []
          : [
              row(
                `${runners[1]!.name} over ${runner.name}, by CPU`,
                runs[1]!.map(({ run }, round) => own[round]!.run.cpuSeconds / run.cpuSeconds),
              ),
            ]),
      ];
    });
    console.log(markdownTable(["Ratio", "median", "rounds"], ratioRows));
    const peaks = runners.map((runner, index) => `${runner.name} ${formatNumber(Math.max(...runs[index]!.map(({ run }) => run.peakRssMiB)), 1)} MiB`);
    console.log(
      `\nPeak RSS, highest of the rounds: ${peaks.join("; ")}. Load (1 min) over the runs: ${formatNumber(Math.min(...runs.flat().map(({ load }) => load)), 2)}–${formatNumber(Math.max(...runs.flat().map(({ load }) => load)), 2)}.`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await sandbox.stop();
  }
}
