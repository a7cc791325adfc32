/**
 * One bounded load on a server on loopback, from a load generator in a process of its own
 * (`load-generator.ts`), with the CPU time the server (from /proc, Linux) and the generator spent in
 * the measured window: the server's share of one core shows whether the server was the limit.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type LoadFigures, type LoadRequest, measuringLine } from "./load-generator.ts";

const generator = fileURLToPath(new URL("./load-generator.ts", import.meta.url));

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** CPU seconds (user + system, all threads) a process has used so far. */
function cpuSeconds(pid: number): number {
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

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
}

/** Loads the server whose process is `pid` as `request` says; resolves with the figures of the measured window. */
export async function loadServer(pid: number, request: LoadRequest): Promise<ServerLoad> {
  const child = spawn(process.execPath, [generator, JSON.stringify(request)], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve, reject) => child.once("error", reject).once("exit", resolve));
  let start: { wall: number; server: number } | undefined;
  let end: { wall: number; server: number; figures: LoadFigures } | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line === measuringLine) start = { wall: performance.now(), server: cpuSeconds(pid) };
    else end = { wall: performance.now(), server: cpuSeconds(pid), figures: JSON.parse(line) as LoadFigures };
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
  };
}
