/**
 * Issue 48: the kit measured on servers it was never shown. `test/blind/` holds two servers written from the seed
 * alone (harbor and lantern), each with its own data and its own reading of every point the seed leaves open, and a
 * manifest of deviations, each breaking one sentence of the seed. Each faithful server passes the kit's run as a
 * user of it would start it (its bot, firing into one of its conversations, its export), with findings only; each
 * deviation of the manifest, switched on alone, fails the run, except those the manifest lists as known misses
 * (with why). The whole matrix at the default number of examples is `pnpm exec node test/blind/score.ts`.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { type ConformanceReport, runConformance } from "../src/index.ts";
import { type BlindServer, blindServers, kitOptionsFor } from "./blind/servers.ts";

/** Generated requests per property in the runs of one deviation: fewer than the default 50, so the matrix fits a test run. */
const examplesPerDeviation = 10;

const failingChecks = (report: ConformanceReport): string[] => report.checks.filter((check) => check.failed > 0).map((check) => check.name);
const firstFailures = (report: ConformanceReport): string =>
  JSON.stringify(report.checks.filter((check) => check.failed > 0).map((check) => [check.name, check.failures[0]?.message, check.failures[0]?.sent]));

async function runAgainst(server: BlindServer, deviations: readonly string[], examples?: number): Promise<ConformanceReport> {
  const running = await server.start(deviations);
  try {
    return await runConformance({ ...kitOptionsFor(server, running.baseUrl), seed: 1, ...(examples === undefined ? {} : { examples }) });
  } finally {
    await running.close();
  }
}

describe.each(blindServers)("the blind server $name", (server) => {
  it("read faithfully, passes the kit's default run, its readings of the open points reported as findings", async () => {
    const report = await runAgainst(server, []);
    expect(failingChecks(report), firstFailures(report)).toEqual([]);
    expect(report.passed).toBe(true);
    for (const point of ["page_index_base", "default_page_size", "trigger_list_shape", "inbound_direction_spelling"])
      expect(report.findings.map((finding) => finding.name)).toContain(point);
  });

  it("every deviation is named once, quotes the seed, says what it does, and is switched in the server's own code", async () => {
    const source = await readFile(server.source, "utf8");
    const ids = server.deviations.map((deviation) => deviation.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const deviation of server.deviations) {
      expect(deviation.quote, deviation.id).not.toBe("");
      expect(deviation.does, deviation.id).not.toBe("");
      expect(source, deviation.id).toContain(`"${deviation.id}"`);
    }
  });

  const expectedCaught = server.deviations.filter((deviation) => deviation.knownMiss === undefined);
  it.each(expectedCaught)("$id is caught", async ({ id, needsDefaultRun }) => {
    const report = await runAgainst(server, [id], needsDefaultRun === undefined ? examplesPerDeviation : undefined);
    expect(failingChecks(report).length, `${server.name} with ${id}: no check failed`).toBeGreaterThan(0);
  });
});
