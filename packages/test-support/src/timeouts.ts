/**
 * Time-out of a test or hook that compiles, packs, starts a process or drives a browser. Only a guard
 * against hangs: CI runs several packages' tests at once on 2 shared cores, where such a test has been
 * seen to take 3-6 times as long as on an idle machine, so a 30-60 s guard failed tests that were fine.
 */
export const heavyTestTimeoutMs = 180_000;
