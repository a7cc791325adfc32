import cliProgress from "cli-progress";
import type { Progress } from "../options.ts";

/** A progress bar on stderr when it is a terminal; nothing otherwise (CI logs stay clean). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): { update(progress: Progress): void; stop(): void } {
  if (!stream.isTTY) return { update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { stream, format: "{bar} {value}/{total} requests | {phase}", clearOnComplete: true, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update({ requests, maxRequests, phase }) {
      if (!started) bar.start(maxRequests, 0, { phase });
      started = true;
      bar.update(requests, { phase });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
