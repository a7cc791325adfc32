/**
 * What the sandbox's benchmarks (`sandbox.ts`, `sandbox-data.ts`) share: the search path, the load each server
 * gets, and the rounds that load servers in turning order so that all see the same state of the machine.
 */
import { loadServer, type ServerLoad } from "./server-load.ts";

/** The search operation's path. */
export const searchPath = "/api/v2/channels/conversations";
/**
 * The load on each server: 10 connections, one request in flight each, from autocannon in a process of its own.
 * Each measured window follows a warm-up, a long one before a server's first window (Prism's CPU time per request
 * still falls by a third over its first 10 s of load); rounds alternate which server goes first, so both see the
 * same state of the machine.
 */
export const load = { connections: 10, durationSeconds: 5 };
/** Seconds of warm-up before a server's first window of a search load, and before each later window. */
export const warmUpSeconds = { first: 10, eachRound: 2 };
/** Rounds of measured windows per server. */
export const rounds = 3;

/** A server under load. */
export interface LoadTarget {
  /** Base URL. */
  readonly url: string;
  /** Its process, whose CPU time is read. */
  readonly pid: number;
}

/** How long a `roundsOf` run is: its rounds, each window's seconds, and the warm-up before each later window. */
export interface RoundsShape {
  readonly rounds: number;
  readonly durationSeconds: number;
  readonly eachRoundWarmUpSeconds: number;
}

/**
 * Loads each target with `request` once per round, in an order that turns round by round, `firstWarmUpSeconds`
 * of warm-up before a target's first window; the loads of each target in round order. `shape` is the sandbox
 * benchmarks' (`rounds`, `load.durationSeconds`, `warmUpSeconds.eachRound`) unless given.
 */
export async function roundsOf(
  targets: readonly LoadTarget[],
  request: (target: LoadTarget) => Omit<Parameters<typeof loadServer>[1], "warmUpSeconds" | "durationSeconds">,
  firstWarmUpSeconds: number,
  shape: RoundsShape = { rounds, durationSeconds: load.durationSeconds, eachRoundWarmUpSeconds: warmUpSeconds.eachRound },
): Promise<ServerLoad[][]> {
  const results: ServerLoad[][] = targets.map(() => []);
  for (let round = 0; round < shape.rounds; round++) {
    for (const index of targets.map((_, position) => (position + round) % targets.length)) {
      const target = targets[index]!;
      const warmUp = round === 0 ? firstWarmUpSeconds : shape.eachRoundWarmUpSeconds;
      results[index]!.push(await loadServer(target.pid, { ...request(target), warmUpSeconds: warmUp, durationSeconds: shape.durationSeconds }));
    }
  }
  return results;
}

/** The value at `fraction` (0.95: the 95th percentile) of ascending `sorted` values. */
export const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
