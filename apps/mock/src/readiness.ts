import { setTimeout as sleep } from "node:timers/promises";

/** Resolves once `url` answers any HTTP response; rejects when `deadline` (epoch ms) passes or `abort` fires. */
export async function waitForHttp(url: string, deadline: number, abort: AbortSignal): Promise<void> {
  let lastError: unknown;
  while (Date.now() < deadline) {
    abort.throwIfAborted();
    try {
      const response = await fetch(url, { signal: AbortSignal.any([abort, AbortSignal.timeout(2_000)]) });
      await response.body?.cancel();
      return;
    } catch (error) {
      lastError = error;
      await sleep(100, undefined, { signal: abort });
    }
  }
  throw new Error(`${url} did not answer before the deadline`, { cause: lastError });
}
