/** What the bench reads of a process from /proc (Linux): its memory, now and at its peak. */
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
