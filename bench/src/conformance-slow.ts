/**
 * The conformance kit against a slow server: the sandbox on loopback with every search answered after
 * 3 s, checked with `bot-conversation check`'s defaults plus `--max-response-time 1000` (which flags
 * the slow answers) and no `--max-time`: once a search has failed the bound it is not sent again, so
 * the run fails fast by itself. Budget: the run ends within 30 s, well within a minute. Baseline in
 * the same run: the same command against the sandbox answering at once.
 */

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { type ConformanceReport, runCheckCommand } from "@bot-conversation/conformance";
import { createSandbox } from "@bot-conversation/sandbox";
import { serveSandbox } from "./conformance.ts";
import { formatNumber, markdownTable, type Section } from "./report.ts";

const searchPath = "/api/v2/channels/conversations";
const delayMs = 3_000;
const budgetSeconds = 30;

/** Runs `bot-conversation check` in process against `baseUrl`; wall time, exit code and the JSON report. */
async function check(baseUrl: string, directory: string): Promise<{ seconds: number; code: number; report: ConformanceReport }> {
  const json = join(directory, `${Date.now()}.json`);
  const started = performance.now();
  const code = await runCheckCommand(
    ["check", "--base-url", baseUrl, "--token", "sandbox-token", "--seed", "1", "--max-response-time", "1000", "--json", json],
    { stdout: new PassThrough().resume(), stderr: new PassThrough().resume(), env: {} },
  );
  const seconds = (performance.now() - started) / 1000;
  return { seconds, code, report: JSON.parse(await readFile(json, "utf8")) as ConformanceReport };
}

/** The run against a 3 s search, and the same run against the sandbox answering at once. */
export async function conformanceSlowServer(): Promise<Section> {
  const sandbox = await createSandbox();
  const slow = await serveSandbox(async (request) => {
    if (new URL(request.url).pathname === searchPath) await sleep(delayMs);
    return sandbox.fetch(request);
  });
  const quick = await serveSandbox((request) => sandbox.fetch(request));
  const directory = await mkdtemp(join(tmpdir(), "bench-conformance-"));
  try {
    const slowRun = await check(slow.url, directory);
    const quickRun = await check(quick.url, directory);
    const failedChecks = (report: ConformanceReport): string =>
      report.checks
        .filter((entry) => entry.status === "failed")
        .map((entry) => entry.name)
        .join(", ") || "none";
    const row = (name: string, run: Awaited<ReturnType<typeof check>>) => [
      name,
      formatNumber(run.seconds, 1),
      run.report.requests,
      formatNumber(run.report.requests / run.seconds, 1),
      run.report.stopped ?? "finished",
      failedChecks(run.report),
      run.code,
    ];
    return {
      title: "Conformance kit against a slow server",
      method: `bot-conversation check (in process) with its defaults and --max-response-time 1000 (no --max-time) against the sandbox over node:http on 127.0.0.1, every search delayed ${delayMs / 1000} s; baseline: the same command against the sandbox answering at once. Wall time includes writing the JSON report.`,
      table: markdownTable(
        ["Server", "seconds", "requests", "requests/s", "stopped", "failed checks", "exit"],
        [row(`search answered in ${delayMs / 1000} s`, slowRun), row("baseline: the sandbox at once", quickRun)],
      ),
      budgets: [
        {
          name: `a default run against a 3 s search ends by itself within ${budgetSeconds} s and fails only max_response_time`,
          ok: slowRun.seconds <= budgetSeconds && slowRun.report.stopped === undefined && failedChecks(slowRun.report) === "max_response_time",
          detail: `${formatNumber(slowRun.seconds, 1)} s, stopped: ${slowRun.report.stopped ?? "no"}, failed: ${failedChecks(slowRun.report)}`,
        },
      ],
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
    await slow.close();
    await quick.close();
    await sandbox.close();
  }
}
