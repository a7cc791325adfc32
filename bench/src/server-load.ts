/**
 * One bounded load on a server on loopback, from a load generator in a process of its own
 * (`load-generator.ts`), with the CPU time the server (from /proc, Linux) and the generator spent in
 * the measured window: the server's share of one core shows whether the server was the limit, and its CPU
 * time per answer is what servers are compared by (`cpuRatios`). Requests per second move with whatever
 * else the machine runs (14-380% between rounds of one run on a shared machine); the CPU a server spends on
 * one answer moves far less.
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type LoadFigures, type LoadRequest, measuringLine } from "./load-generator.ts";
import { cpuSecondsOf } from "./proc.ts";
import { formatNumber, median } from "./report.ts";

const generator = fileURLToPath(new URL("./load-generator.ts", import.meta.url));

/** What one load measured. */
export interface ServerLoad extends LoadFigures {
  /** Responses per second in the measured window. */
  readonly requestsPerSecond: number;
  /** CPU time of the server process over the window's wall time (1: one core always busy). */
  readonly serverCpuShare: number;
  /** CPU time of the server per response, µs. */
  readonly serverCpuMicrosPerRequest: number;
  /** CPU time of the load generator over the window's wall time. */
  readonly generatorCpuShare: number;
  /** The machine's load average over the last minute, at the window's end: how busy the machine was besides. */
  readonly machineLoad: number;
}

/**
 * The ratio of one server to another by CPU time per answer, round by round (the loads of the same rounds, in
 * order): the other's CPU per answer over this one's, so above 1 this one answers with less CPU (as a ratio of
 * requests per second reads, were both given the same CPU). Against a bare `node:http` server answering the
 * same bytes, it is the share of that ceiling.
 */
export function cpuRatios(server: readonly ServerLoad[], other: readonly ServerLoad[]): number[] {
  return server.map((load, round) => other[round]!.serverCpuMicrosPerRequest / load.serverCpuMicrosPerRequest);
}

/** The same ratio by requests per second (information: it moves with the rest of the machine). */
export function throughputRatios(server: readonly ServerLoad[], other: readonly ServerLoad[]): number[] {
  return server.map((load, round) => load.requestsPerSecond / other[round]!.requestsPerSecond);
}

/** Loads the server whose process is `pid` as `request` says; resolves with the figures of the measured window. */
export async function loadServer(pid: number, request: LoadRequest): Promise<ServerLoad> {
  const child = spawn(process.execPath, [generator, JSON.stringify(request)], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve, reject) => child.once("error", reject).once("exit", resolve));
  let start: { wall: number; server: number } | undefined;
  let end: { wall: number; server: number; figures: LoadFigures } | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line === measuringLine) start = { wall: performance.now(), server: cpuSecondsOf(pid).own };
    else end = { wall: performance.now(), server: cpuSecondsOf(pid).own, figures: JSON.parse(line) as LoadFigures };
  }
  const code = await exited;
  if (code !== 0 || !start || !end) throw new Error(`the load generator exited with ${code} before it reported its figures`);
  const wallSeconds = (end.wall - start.wall) / 1000;
  const { figures } = end;
  return {
    ...figures,
    requestsPerSecond: figures.requests / (figures.durationMs / 1000),
    serverCpuShare: (end.server - start.server) / wallSeconds,
    serverCpuMicrosPerRequest: ((end.server - start.server) * 1e6) / figures.requests,
    generatorCpuShare: figures.generatorCpuSeconds / wallSeconds,
    machineLoad: loadavg()[0]!,
  };
}

/** The header of a table of loads, one row a server and round: the round, the server, then `loadCells`. */
export function loadHeader(server: string): string[] {
  return [
    "Round",
    server,
    "server CPU µs per answer",
    "requests/s",
    "p50 ms",
    "p99 ms",
    "server CPU",
    "load generator CPU",
    "machine load (1 min)",
    "non-2xx",
    "errors",
  ];
}

/** One load's row of a `loadHeader` table. */
export function loadRow(round: number, name: string, result: ServerLoad): (string | number)[] {
  return [
    round + 1,
    name,
    formatNumber(result.serverCpuMicrosPerRequest, 1),
    formatNumber(result.requestsPerSecond),
    formatNumber(result.p50, 1),
    formatNumber(result.p99, 1),
    `${formatNumber(result.serverCpuShare * 100)}%`,
    `${formatNumber(result.generatorCpuShare * 100)}%`,
    formatNumber(result.machineLoad, 2),
    result.non2xx,
    result.errors,
  ];
}

/** A ratio of one server to another in rounds: each round's, and their median. */
export interface RoundRatios {
  readonly rounds: number[];
  readonly median: number;
}

/**
 * The ratio of `server` to `other` round by round, by CPU per answer (what a budget reads) and by requests
 * per second (information), with the two rows of a table: each round's value and the median, `format`ted.
 */
export function compareLoads(
  name: string,
  server: readonly ServerLoad[],
  other: readonly ServerLoad[],
  format: (ratio: number) => string,
): { byCpu: RoundRatios; byThroughput: RoundRatios; rows: string[][] } {
  const byCpu = cpuRatios(server, other);
  const byThroughput = throughputRatios(server, other);
  const row = (how: string, values: number[]) => [`${name}, ${how}`, ...values.map(format), format(median(values))];
  return {
    byCpu: { rounds: byCpu, median: median(byCpu) },
    byThroughput: { rounds: byThroughput, median: median(byThroughput) },
    rows: [row("by CPU per answer", byCpu), row("by requests/s (information)", byThroughput)],
  };
}

/** The header of a `compareLoads` table over `rounds` rounds. */
export function ratioHeader(what: string, rounds: number): string[] {
  return [what, ...Array.from({ length: rounds }, (_, round) => `round ${round + 1}`), "median"];
}

/** A ratio as `1.23x`. */
export const times = (ratio: number): string => `${formatNumber(ratio, 2)}x`;
/** A ratio as a share, `81%`. */
export const percent = (ratio: number): string => `${formatNumber(ratio * 100)}%`;
