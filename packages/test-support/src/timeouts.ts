/**
 * Time limits in tests are guards against a hang, never assertions of speed (speed is `pnpm bench`'s).
 * A contributor's laptop does other work while the tests run, and CI runs several packages' tests at
 * once on 2 shared cores; with two CPU-bound processes beside the suite, a step has been seen to take
 * 3-6 times as long as on an idle machine. Every guard is therefore the step's idle time scaled by one
 * factor, with room to spare.
 */
export const busyMachineFactor = 10;

/**
 * The time-out guarding a wait that takes about `idleMs` on an idle machine: `idleMs` scaled by
 * {@link busyMachineFactor}. Past it, the wait is a hang, not a slow machine.
 */
export function hangGuardMs(idleMs: number): number {
  return idleMs * busyMachineFactor;
}

/**
 * Time-out of a test or hook that compiles, packs, starts a process or drives a browser: about 18 s
 * on an idle machine, guarded as a hang.
 */
export const heavyTestTimeoutMs = hangGuardMs(18_000);
