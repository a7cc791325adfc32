import type { Options } from "cli-progress";

/** Progress of a long export. */
export interface ExportProgress {
  /** Records written so far, of `total` (known from the first page). */
  update(count: number, total: number): void;
  /** Removes the bar. */
  stop(): void;
}

/**
 * A progress bar on stderr (count, rate, estimate) when stderr is a terminal and the records go
 * elsewhere (a file or a pipe); nothing otherwise: never on a pipe, never over a table. The bar's
 * library is loaded only then: an export into a file from a script does not pay for it at start.
 */
export async function exportProgress(stderr: NodeJS.WritableStream & { isTTY?: boolean }, stdout: { isTTY?: boolean }): Promise<ExportProgress> {
  if (!stderr.isTTY || stdout.isTTY) return { update: () => {}, stop: () => {} };
  const { default: cliProgress } = await import("cli-progress");
  // Until a second count arrives there is nothing to estimate from: the bar shows "ETA …", not cli-progress's "0s".
  let estimated = false;
  const formatTime = (seconds: number, options: Options, roundTo: number) => (estimated ? cliProgress.Format.TimeFormat(seconds, options, roundTo) : "…");
  const bar = new cliProgress.SingleBar(
    {
      stream: stderr as NodeJS.WriteStream,
      format: "{bar} {value}/{total} conversations | {rate}/s | ETA {eta_formatted}",
      formatTime,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  let running = false;
  return {
    update(count, total) {
      const rate = Math.round(count / Math.max((performance.now() - started) / 1000, 0.001));
      if (!running) bar.start(total, count, { rate });
      else estimated = true;
      running = true;
      bar.setTotal(Math.max(total, count));
      bar.update(count, { rate });
    },
    stop() {
      if (running) bar.stop();
      running = false;
      estimated = false;
    },
  };
}
