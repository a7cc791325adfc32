/**
 * The CPU time a sandbox spends getting ready, before and after a change, in the same run: `node src/ready-cpu.ts
 * [<name>=<path of a built main.js> ...]` starts each build (the workspace's own `dist/main.js` when none is named) as
 * the sandbox section does, `--conversations 100000 --data <a new file>`, in rounds that turn the order, and reads
 * the process's CPU time (/proc utime + stime, all its threads) the moment its ready line arrives, with the wall time
 * from spawn; then, after `AFTER_MS` of the process left alone (1,000 by default), its CPU time again: what it spends
 * past its ready line (a reader that comes late, as one on a busy machine does, counts that too). It prints each
 * start, each build's medians, and each build's ratio to the first (the first's CPU over this one's, round by round:
 * above 1, this one is ready with less CPU), with the machine's 1-minute load at each start. Not part of `pnpm
 * bench`: a tool for the change at hand (as `search-cpu.ts`), e.g.
 * `node src/ready-cpu.ts before=/work/main/packages/sandbox/dist/main.js after=../packages/sandbox/dist/main.js`.
 *
 * From the environment: `ROUNDS` (8), `CONVERSATIONS` (100000), `AFTER_MS` (1000).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { cpuSecondsOf, memoryOf } from "./proc.ts";
import { formatNumber, markdownTable, median } from "./report.ts";
import { namedBuilds, startWithData } from "./sandbox-builds.ts";
import { turningOrder } from "./sandbox-rounds.ts";

const rounds = Number(process.env["ROUNDS"] ?? 8);
const conversations = Number(process.env["CONVERSATIONS"] ?? 100_000);
const afterMs = Number(process.env["AFTER_MS"] ?? 1_000);
for (const [name, value] of Object.entries({ ROUNDS: rounds, CONVERSATIONS: conversations, AFTER_MS: afterMs }))
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name}: expected a whole number of at least 0`);

/** One start of a build: its CPU and wall time to the ready line, its CPU `afterMs` later, its peak RSS then, and the load. */
interface Start {
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
  readonly cpuAfterSeconds: number;
  readonly peakMiB: number;
  readonly load: number;
}

/** Starts `main` with `conversations` over a new `--data` file (as the section does) and reads its CPU time at its ready line, then `afterMs` later. */
async function startOnce(main: string, data: string): Promise<Start> {
  const { sandbox, wallMs, cpuSeconds } = await startWithData(data, { command: main, conversations });
  try {
    const load = loadavg()[0]!;
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    return {
      cpuSeconds,
      wallSeconds: wallMs / 1000,
      cpuAfterSeconds: cpuSecondsOf(sandbox.process.pid!).own,
      peakMiB: memoryOf(sandbox.process.pid!, "VmHWM") / 1024,
      load,
    };
  } finally {
    await sandbox.stop();
  }
}

if (import.meta.main) {
  const builds = namedBuilds(process.argv.slice(2));
  const scratch = mkdtempSync(join(tmpdir(), "bench-ready-cpu-"));
  const starts: Start[][] = builds.map(() => []);
  const rows: (string | number)[][] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const index of turningOrder(round, builds.length)) {
        const start = await startOnce(builds[index]!.main, join(scratch, `data-${round}-${index}.db`));
        starts[index]!.push(start);
        rows.push([
          round + 1,
          builds[index]!.name,
          formatNumber(start.cpuSeconds, 2),
          formatNumber(start.wallSeconds, 2),
          formatNumber(start.cpuAfterSeconds - start.cpuSeconds, 2),
          formatNumber(start.peakMiB),
          formatNumber(start.load, 2),
        ]);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${formatNumber(conversations)} conversations with --data, ${rounds} rounds`);
  console.log();
  console.log(markdownTable(["Round", "build", "CPU s to ready", "wall s to ready", `CPU s in the ${afterMs} ms after`, "peak RSS MiB", "load (1 min)"], rows));
  console.log();
  const first = starts[0]!;
  console.log(
    markdownTable(
      ["Build", "median CPU s", "median wall s", `median CPU s in the ${afterMs} ms after`, `${builds[0]!.name}'s CPU over this one's (median; rounds)`],
      builds.map(({ name }, index) => {
        const own = starts[index]!;
        const ratios = own.map((start, round) => first[round]!.cpuSeconds / start.cpuSeconds);
        return [
          name,
          formatNumber(median(own.map((start) => start.cpuSeconds)), 2),
          formatNumber(median(own.map((start) => start.wallSeconds)), 2),
          formatNumber(median(own.map((start) => start.cpuAfterSeconds - start.cpuSeconds)), 2),
          index === 0 ? "" : `${formatNumber(median(ratios), 2)}x (${ratios.map((ratio) => formatNumber(ratio, 2)).join(", ")})`,
        ];
      }),
    ),
  );
}
