import { setTimeout as sleep } from "node:timers/promises";

/**
 * Resolves once `url` answers a CORS preflight; rejects when `deadline` (epoch ms) passes or `abort`
 * fires. Prism (run with `--cors`) answers a preflight itself without routing or logging it, so the
 * probe leaves no `NO_PATH_MATCHED_ERROR` in the log.
 */
export async function waitForHttp(url: string, deadline: number, abort: AbortSignal): Promise<void> {
  let lastError: unknown;
  while (Date.now() < deadline) {
    abort.throwIfAborted();
    try {
      const response = await fetch(url, {
        method: "OPTIONS",
        headers: { origin: new URL(url).origin, "access-control-request-method": "GET" },
        signal: AbortSignal.any([abort, AbortSignal.timeout(2_000)]),
      });
      await response.body?.cancel();
      return;
    } catch (error) {
      lastError = error;
      await sleep(100, undefined, { signal: abort });
    }
  }
  throw new Error(`${url} did not answer before the deadline`, { cause: lastError });
}
