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
/**
 * Rounds of the sandbox section's searches (`sandbox.ts`): more than the other sections' 3, for a steadier median of
 * the share of the ceiling, whose rounds spread 57–86% in one run of 3 on this shared machine, and 55–94% in one of 5
 * on a quiet machine (the sandbox's windows of two rounds a third or more slower than its other three).
 */
export const searchRounds = 7;

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

/** The order of the targets in a round (0 the first): their indexes, each once. */
export type RoundOrder = (round: number, targets: number) => number[];

/** Every target in turn, the first of a round moving one place each round. */
export const turningOrder: RoundOrder = (round, targets) => Array.from({ length: targets }, (_, position) => (position + round) % targets);

/**
 * The first target first in every round, then the others, the last two back to back, which of them first
 * alternating round by round: the two a budget compares (the sandbox and the ceiling) are loaded in adjacent windows
 * in every round, each first as often (one round more for the earlier of them when the rounds are odd), so a
 * round's ratio never spans a third server's window, nor more of the machine's drift than one window's.
 */
export const lastTwoPaired: RoundOrder = (round, targets) => {
  const order = Array.from({ length: targets }, (_, index) => index);
  if (round % 2 === 1 && targets >= 2) order.push(...order.splice(targets - 2, 2).reverse());
  return order;
};

/**
 * Loads each target with `request` once per round, in `order` (`turningOrder` unless given), `firstWarmUpSeconds`
 * of warm-up before a target's first window; the loads of each target in round order. `shape` is the sandbox
 * benchmarks' (`rounds`, `load.durationSeconds`, `warmUpSeconds.eachRound`) unless given.
 */
export async function roundsOf(
  targets: readonly LoadTarget[],
  request: (target: LoadTarget) => Omit<Parameters<typeof loadServer>[1], "warmUpSeconds" | "durationSeconds">,
  firstWarmUpSeconds: number,
  shape: RoundsShape = { rounds, durationSeconds: load.durationSeconds, eachRoundWarmUpSeconds: warmUpSeconds.eachRound },
  order: RoundOrder = turningOrder,
): Promise<ServerLoad[][]> {
  const results: ServerLoad[][] = targets.map(() => []);
  for (let round = 0; round < shape.rounds; round++) {
    for (const index of order(round, targets.length)) {
      const target = targets[index]!;
      const warmUp = round === 0 ? firstWarmUpSeconds : shape.eachRoundWarmUpSeconds;
      results[index]!.push(await loadServer(target.pid, { ...request(target), warmUpSeconds: warmUp, durationSeconds: shape.durationSeconds }));
    }
  }
  return results;
}

/** The value at `fraction` (0.95: the 95th percentile) of ascending `sorted` values. */
export const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
