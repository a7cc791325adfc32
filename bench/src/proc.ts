/** What the bench reads of a process from /proc (Linux): its memory, now and at its peak, and its CPU time. */
import { readFileSync } from "node:fs";

/** Kilobytes of a /proc status field (VmRSS, VmHWM) of a process. */
export function memoryOf(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((candidate) => candidate.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, "") ?? Number.NaN);
}

/**
 * Polls a process's peak RSS (VmHWM) every 20 ms until `stop`, which returns the highest seen, in MiB: read
 * once more then, as the process may still be running. A poll after the process exited reads nothing.
 */
export function pollPeakRss(pid: number): { stop(): number } {
  let peakKiB = 0;
  const read = () => {
    try {
      const kiB = memoryOf(pid, "VmHWM");
      if (Number.isFinite(kiB)) peakKiB = Math.max(peakKiB, kiB);
    } catch {
      // Exited between two polls.
    }
  };
  const poll = setInterval(read, 20);
  return {
    stop: () => {
      clearInterval(poll);
      read();
      return peakKiB / 1024;
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/**
 * CPU seconds (user + system, all threads) a process has used so far, and those of its children that have
 * exited and been reaped (Node reaps a child before it emits `exit`): `self` for the bench's own process.
 */
export function cpuSecondsOf(pid: number | "self"): { own: number; children: number } {
  // Fields after the command name, which is in parentheses and may hold spaces: utime, stime, cutime and cstime
  // are the 14th to 17th of the line, the 12th to 15th after the name.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const seconds = (at: number) => Number(fields[at]) / ticksPerSecond;
  return { own: seconds(11) + seconds(12), children: seconds(13) + seconds(14) };
}
