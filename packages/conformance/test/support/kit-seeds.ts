/**
 * What the kit's fault tests share (kit-faults, kit-open-points, kit-families: three files so that they run
 * side by side): the seeds, the hang guard of a case, a report's failing checks and findings, and the runner
 * of every seed side by side against one faulty proxy in front of the test file's sandbox.
 */
import type { Sandbox } from "@bot-conversation/sandbox";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { type ConformanceOptions, type ConformanceReport, runConformance } from "../../src/index.ts";
import { type Fault, faultyFetch, faultyFetchBaseUrl } from "./faulty-proxy.ts";
import { fixtureBot, fixtureConversation, kitRequestTimeoutMs } from "./sandbox.ts";

export const seeds = Array.from({ length: 20 }, (_, index) => index + 1);
/** The seeds each family's fault runs under: fewer than the server faults' twenty, as there are many families. */
export const familySeeds = [1, 2, 3, 4, 5];
/** A hang guard for a case of twenty runs side by side on a loaded machine, not a bound on speed. */
export const caseTimeoutMs = heavyTestTimeoutMs * 2;
export const failing = (report: ConformanceReport): string[] => report.checks.filter((check) => check.failed > 0).map((check) => check.name);
/** The seed and the first failure of each failing check, for an assertion's message. */
export const why = (report: ConformanceReport): string =>
  `seed ${report.seed}: ${JSON.stringify(report.checks.filter((check) => check.failed > 0).map((check) => [check.name, check.failures[0]?.message, check.failures[0]?.sent, check.failures[0]?.received.slice(0, 120)]))}`;
export const finding = (report: ConformanceReport, name: string): unknown => report.findings.find((entry) => entry.name === name)?.value;

/** The options of one run of the kit against a proxy in front of the fixture sandbox. */
export const kitRun = (baseUrl: string, seed: number, options: Partial<ConformanceOptions>): ConformanceOptions => ({
  baseUrl,
  token: "sandbox-token",
  seed,
  rate: 0,
  timeoutMs: kitRequestTimeoutMs,
  agentStageId: fixtureBot,
  ...fixtureConversation,
  ...options,
});

/**
 * Runs every seed side by side through one faulty proxy in front of `sandbox`: read-only unless the options allow
 * firing. The proxy is a `fetch` in process (`faultyFetch`): its faults are those of the proxy on a socket, and the
 * kit's transport over HTTP has tests of its own; twenty runs over loopback spent a fifth of their time in HTTP.
 */
export function seedRunner(sandbox: () => Sandbox) {
  return async (fault: Fault | (() => Fault), options: Partial<ConformanceOptions> = {}, runSeeds = seeds): Promise<ConformanceReport[]> => {
    // A fault that keeps state (what a run's fires did, the requests in flight) is made once per run: the runs side by side share nothing.
    const fetchOf = (each: Fault): typeof globalThis.fetch => faultyFetch({ baseUrl: "http://sandbox.test", fetch: sandbox().fetch }, each);
    const shared = typeof fault === "function" ? undefined : fetchOf(fault);
    return await Promise.all(
      runSeeds.map((seed) => {
        const fetch = shared ?? fetchOf((fault as () => Fault)());
        return runConformance(kitRun(faultyFetchBaseUrl, seed, { examples: 4, maxRequests: 800, fetch, ...options }));
      }),
    );
  };
}

/**
 * The `date_time_variable_forms` finding of a server answering a time without an offset, a date alone, ISO 8601's basic
 * format and RFC 3339's space with these statuses, and every other open form (a time without seconds, an hour-only
 * offset, a decimal comma) with the sandbox's 500.
 */
export const dateTimeFormAnswers = (withoutOffset: number, dateAlone: number, basic: number, space: number): Record<string, number> => ({
  "a time without an offset": withoutOffset,
  "a date alone": dateAlone,
  "ISO 8601's basic format": basic,
  "a space instead of T (RFC 3339 allows it for readability)": space,
  "a time without seconds": 500,
  "an offset of whole hours without minutes": 500,
  "a decimal comma": 500,
});
