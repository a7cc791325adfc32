/**
 * A command run by the bench as a process of its own, to its exit: its wall time, its CPU time (read as the
 * bench's reaped children's, from /proc: a process that has exited has no /proc entry left to read) and its
 * peak RSS. Used where a figure is a whole process's work (an export, a recorder over an export).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { cpuSecondsOf, pollPeakRss } from "./proc.ts";

/** A process the bench ran to its exit. */
export interface ProcessRun {
  /** Wall time from spawn to exit, s. */
  readonly seconds: number;
  /** Its CPU time (user + system, all its threads), from its start to its exit, s. */
  readonly cpuSeconds: number;
  /** Its peak RSS (VmHWM, polled every 20 ms), MiB. */
  readonly peakRssMiB: number;
}

/**
 * The CPU seconds of the bench's children that exit while `work` runs (Node reaps a child before it emits `exit`,
 * and its time then counts in the parent's cutime + cstime): the caller makes sure no other child exits meanwhile.
 */
export async function reapedCpuSeconds<T>(work: () => Promise<T>): Promise<{ value: T; cpuSeconds: number }> {
  const before = cpuSecondsOf("self").children;
  const value = await work();
  return { value, cpuSeconds: cpuSecondsOf("self").children - before };
}

/**
 * Runs `node <args>` with `env` added, its stdout written to the file `stdoutPath` (as `> file` would: the bench's
 * own process does not read it meanwhile), its stderr passed through; rejects naming `what` when it exits other
 * than with 0.
 */
export async function runToExit(what: string, args: readonly string[], env: NodeJS.ProcessEnv, stdoutPath: string): Promise<ProcessRun> {
  const file = openSync(stdoutPath, "w");
  const started = performance.now();
  const { value, cpuSeconds } = await reapedCpuSeconds(async () => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", file, "inherit"] });
    closeSync(file);
    const peak = pollPeakRss(child.pid!);
    const [code] = (await once(child, "exit")) as [number | null];
    return { code, peakRssMiB: peak.stop() };
  });
  if (value.code !== 0) throw new Error(`${what} exited with ${value.code}`);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds, peakRssMiB: value.peakRssMiB };
}
