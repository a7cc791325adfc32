/** What `bot-conversation check` does once its flags are read (`command.ts`): loaded only when a check runs. */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { type CommandIo, exitCodes, tokenOf } from "@bot-conversation/client/command-line";
import { sanitizeText } from "@bot-conversation/client/text";
import { type Baseline, baselineOf, parseBaseline } from "./baseline.ts";
import { type CheckConfig, type CheckFlags, readConfig } from "./config.ts";
import { bundledDescription } from "./description.ts";
import { type NetworkFetch, networkFetch } from "./network.ts";
import { type ConformanceOptions, resolveOptions, UsageError } from "./options.ts";
import { redactToken } from "./redact.ts";
import { githubAnnotations, githubSummary } from "./report/github.ts";
import { htmlReport } from "./report/html.ts";
import { humanReport } from "./report/human.ts";
import { jsonReport } from "./report/json.ts";
import { junitReport } from "./report/junit.ts";
import { planText } from "./report/plan.ts";
import { progressBar } from "./report/progress.ts";
import { type ConformanceReport, runConformance, ServerUnusableError } from "./runner.ts";

/** `Name: value` headers as an object; throws naming a malformed one. */
function parseHeaders(headers: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    headers.map((header) => {
      const at = header.indexOf(":");
      if (at <= 0) throw new UsageError(`--header ${JSON.stringify(header)}: expected 'Name: value'`);
      return [header.slice(0, at).trim(), header.slice(at + 1).trim()];
    }),
  );
}

async function readBaseline(path: string, update: boolean): Promise<Baseline | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (update && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new UsageError(`--baseline ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    return parseBaseline(JSON.parse(text) as unknown, "baseline");
  } catch (error) {
    throw new UsageError(`--baseline ${path}: ${(error as Error).message}`);
  }
}

/** The command's options: the flags over the config file's values. */
async function optionsOf(
  flags: CheckFlags,
  io: CommandIo,
): Promise<{ options: ConformanceOptions; merged: CheckFlags & CheckConfig; close: () => Promise<void> }> {
  let config: CheckConfig = {};
  if (flags.config) {
    try {
      config = readConfig(flags.config);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined));
  const merged = { ...config, ...given } as CheckFlags & CheckConfig;
  if (!merged.baseUrl) throw new UsageError("--base-url is required (or baseUrl in --config): the base address of the server");
  if (merged.updateBaseline && !merged.baseline) throw new UsageError("--update-baseline needs --baseline FILE: the file to write");
  let token: string;
  try {
    // The one reading of every command: --token-file, else --token, else BOT_CONVERSATION_TOKEN.
    token = tokenOf(merged, io.env ?? process.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let network: NetworkFetch | undefined;
  try {
    network = networkFetch({ proxy: merged.proxy, caCert: merged.caCert, insecure: merged.insecure });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const baseline = merged.baseline ? await readBaseline(merged.baseline, merged.updateBaseline === true) : undefined;
  const options: ConformanceOptions = {
    baseUrl: merged.baseUrl,
    token,
    allowFire: merged.allowFire === true,
    ...(merged.seed === undefined ? {} : { seed: merged.seed }),
    ...(merged.examples === undefined ? {} : { examples: merged.examples }),
    ...(merged.agentStageId === undefined ? {} : { agentStageId: merged.agentStageId }),
    ...(merged.conversationId === undefined ? {} : { conversationId: merged.conversationId }),
    ...(merged.externalConversationId === undefined ? {} : { externalConversationId: merged.externalConversationId }),
    ...(merged.exportPath === undefined ? {} : { exportPath: merged.exportPath }),
    ...(merged.maxRequests === undefined ? {} : { maxRequests: merged.maxRequests }),
    ...(merged.rate === undefined ? {} : { rate: merged.rate }),
    ...(merged.timeout === undefined ? {} : { timeoutMs: merged.timeout }),
    ...(merged.maxResponseTime === undefined ? {} : { maxResponseTimeMs: merged.maxResponseTime }),
    ...(merged.maxTime === undefined ? {} : { maxTimeMs: merged.maxTime * 1000 }),
    ...(merged.maxFailures === undefined ? {} : { maxFailures: merged.maxFailures }),
    ...(merged.checks === undefined ? {} : { checks: merged.checks }),
    ...(merged.excludeChecks === undefined ? {} : { excludeChecks: merged.excludeChecks }),
    ...(config.decisions ? { decisions: config.decisions } : {}),
    ...(baseline ? { baseline } : {}),
    ...(merged.header ? { headers: parseHeaders(merged.header) } : {}),
    ...(network ? { fetch: network.fetch } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  };
  return { options, merged, close: async () => network?.close() };
}

/** Runs the check of the parsed flags and resolves to its exit code; a usage error is one line on stderr (exit 2). */
export async function check(flags: CheckFlags, io: CommandIo): Promise<number> {
  let token = flags.token ?? (io.env ?? process.env)["BOT_CONVERSATION_TOKEN"] ?? "";
  const fail = (error: unknown): number => {
    io.stderr.write(`error: ${sanitizeText(redactToken(error instanceof Error ? error.message : String(error), token).replace(/\s*[\r\n]\s*/g, "; "))}\n`);
    return exitCodes.usage;
  };
  let prepared: Awaited<ReturnType<typeof optionsOf>>;
  try {
    prepared = await optionsOf(flags, io);
    token = prepared.options.token;
    if (flags.dryRun) {
      await prepared.close();
      io.stdout.write(planText(resolveOptions(prepared.options), bundledDescription()));
      return exitCodes.ok;
    }
  } catch (error) {
    if (error instanceof UsageError) return fail(error);
    throw error;
  }
  const { options, merged, close } = prepared;
  const progress = progressBar(io.stderr as NodeJS.WriteStream);
  let report: ConformanceReport;
  try {
    report = await runConformance({ ...options, onProgress: (state) => progress.update(state) });
  } catch (error) {
    if (error instanceof UsageError || error instanceof ServerUnusableError) return fail(error);
    throw error;
  } finally {
    progress.stop();
    await close();
  }
  io.stdout.write(humanReport(report));
  // Every report is written whatever stopped the run: a partial report is a report.
  if (merged.json) await writeFile(merged.json, jsonReport(report));
  if (merged.junit) await writeFile(merged.junit, junitReport(report));
  if (merged.html) await writeFile(merged.html, htmlReport(report));
  if (io.env?.["GITHUB_ACTIONS"] === "true") {
    io.stdout.write(githubAnnotations(report));
    const summary = io.env["GITHUB_STEP_SUMMARY"];
    if (summary) await appendFile(summary, githubSummary(report));
  }
  if (merged.updateBaseline && merged.baseline) {
    const baseline = baselineOf(report.checks, report.findings);
    await writeFile(merged.baseline, `${JSON.stringify(baseline, null, 2)}\n`);
    io.stderr.write(`Baseline written to ${merged.baseline}: ${baseline.failures.length} known failures, ${Object.keys(baseline.findings).length} findings.\n`);
    return report.stopped === "interrupted" ? exitCodes.interrupted : exitCodes.ok;
  }
  if (!report.passed && report.newFailures > 0) return exitCodes.failed;
  if (report.stopped === "rate-limit") return exitCodes.incomplete;
  if (!report.passed) return exitCodes.failed;
  return report.stopped === "interrupted" ? exitCodes.interrupted : exitCodes.ok;
}
