/**
 * What the observer's bookkeeping of one answered request costs, before and after a change, in the same run: `node
 * src/observe-bookkeeping.ts <before tree> [<after tree>]` loads each tree's built `packages/sandbox/dist` (the after
 * tree defaults to this workspace) and, in alternating rounds, records the same answered search as `observe.ts`
 * records it: its metrics (`SandboxMetrics.request`) and its JSON line from a logger made by `createLogger`, written
 * in batches to /dev/null opened as a file descriptor (the path the command's stdout takes; a pipe's reader would
 * drop lines when a tight loop outruns it, and the bytes written are the same for both builds) (the line through `requestLineWriter` where the build
 * has it, else `logger.info` with the fields `observe.ts` gave it). It prints each round's CPU time per request
 * (`process.cpuUsage`: every thread of this process) and the rounds' median. Not part of `pnpm bench`: a tool for the
 * change at hand, whose figures have far less noise on a busy machine than a whole search's.
 */
import { closeSync, createWriteStream, openSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatNumber, markdownTable, median } from "./report.ts";

type Fields = { requestId: string; method: string; path: string; operation: string; workspace: string | undefined; status: number; durationMs: number };
interface Build {
  readonly name: string;
  /** Records one answered request, as the build's observer does. */
  readonly record: (fields: Fields) => void;
  readonly flush: () => void;
}

const requests = Number(process.env["REQUESTS"] ?? 200_000);
const rounds = Number(process.env["ROUNDS"] ?? 9);

async function buildOf(name: string, root: string, fd: number): Promise<Build> {
  const dist = join(resolve(root), "packages/sandbox/dist");
  const load = (path: string) => import(pathToFileURL(join(dist, path)).href);
  const [log, metricsModule] = await Promise.all([load("observe/log.js"), load("observe/metrics.js")]);
  const logger = await log.createLogger(createWriteStream("", { fd, autoClose: false }), "json");
  const metrics = new metricsModule.SandboxMetrics();
  const writeLine: (fields: Fields) => void =
    typeof log.requestLineWriter === "function"
      ? log.requestLineWriter(logger)
      : (fields) => logger.info({ ...fields, durationMs: Math.round(fields.durationMs * 1000) / 1000 }, "request");
  return {
    name,
    record: (fields) => {
      metrics.request(fields.operation, fields.status, fields.workspace, fields.durationMs / 1000);
      writeLine(fields);
    },
    flush: log.flushLogs,
  };
}

if (import.meta.main) {
  const [beforeTree, afterTree = fileURLToPath(new URL("../..", import.meta.url))] = process.argv.slice(2);
  if (beforeTree === undefined) throw new Error("usage: node src/observe-bookkeeping.ts <before tree> [<after tree>]");
  const devNull = openSync("/dev/null", "w");
  const builds = [await buildOf("before", beforeTree, devNull), await buildOf("after", afterTree, devNull)];
  const cpu = builds.map(() => [] as number[]);
  const loads: number[] = [];
  const prefix = "0f0e0d0c-0b0a-4908-8706-";
  for (let round = 0; round <= rounds; round++) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const build = builds[index]!;
      const started = process.cpuUsage();
      for (let request = 0; request < requests; request++) {
        build.record({
          requestId: `${prefix}${request.toString(16).padStart(12, "0")}`,
          method: "GET",
          path: "/api/v2/channels/conversations",
          operation: "searchConversations",
          workspace: "default",
          status: 200,
          durationMs: 0.05 + (request % 97) / 1000,
        });
      }
      build.flush();
      const used = process.cpuUsage(started);
      // Round 0 warms both up.
      if (round > 0) cpu[index]!.push((used.user + used.system) / requests);
      loads.push(loadavg()[0]!);
    }
  }
  closeSync(devNull);
  const ratios = cpu[0]!.map((before, round) => before / cpu[1]![round]!);
  console.log(
    markdownTable(
      ["Build", "CPU µs per request recorded (median)", "Rounds"],
      builds.map((build, index) => [build.name, formatNumber(median(cpu[index]!), 3), cpu[index]!.map((value) => formatNumber(value, 3)).join(", ")]),
    ),
  );
  console.log(
    `\nbefore over after, by CPU per request: ${formatNumber(median(ratios), 2)}x (rounds ${formatNumber(Math.min(...ratios), 2)}–${formatNumber(Math.max(...ratios), 2)}x); ${requests} requests a round, ${rounds} rounds; load ${formatNumber(Math.min(...loads), 1)}–${formatNumber(Math.max(...loads), 1)}`,
  );
}
