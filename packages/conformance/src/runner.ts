import { applyBaseline, isKnownFailure } from "./baseline.ts";
import { requestLineOf } from "./case.ts";
import { type CheckName, catalogRelations } from "./checks/index.ts";
import { coverageOf, type OperationCoverage, weakDataWarnings } from "./coverage.ts";
import { badCredentials } from "./credentials.ts";
import { bundledDescription, type Description } from "./description.ts";
import { discover, type Finding } from "./discovery.ts";
import type { RuleResult } from "./families.ts";
import { type ConformanceOptions, resolveOptions } from "./options.ts";
import { checksLeftOut, type Phase, phases, type RunState } from "./phases/index.ts";
import { redactToken, redactTokenJson } from "./redact.ts";
import { type CheckResult, Results } from "./results.ts";
import { type RelationCount, Session } from "./session.ts";
import { blameForRefusal } from "./token-blame.ts";
import { BudgetExhaustedError, createTransport, RateLimitedError, StoppedError, UnreachableError } from "./transport.ts";

/** Time and requests of one phase of the run. */
export interface PhaseTiming {
  /** The phase, e.g. `searchConversations: generated requests`. */
  readonly phase: string;
  /** The checks it feeds. */
  readonly checks: readonly CheckName[];
  /** Requests it sent. */
  readonly requests: number;
  /** Wall time in milliseconds. */
  readonly durationMs: number;
}

/** Why a run ended early: Ctrl-C or the caller's signal, `--max-requests`, `--max-time`, `--max-failures`, or the server's rate limit (a `Retry-After` past `--max-time` or past what the kit waits). */
export type StopReason = "interrupted" | "budget" | "time" | "failures" | "rate-limit";

/** An event the server accepted: a real side effect of the run. */
export interface SideEffect {
  /** The fire request, in one line (the token written `$BOT_CONVERSATION_TOKEN`). */
  readonly request: string;
  /** The status it got. */
  readonly status: number;
}

/** How many checks ended each way. */
export interface Counts {
  /** Checks that held on every request they judged. */
  readonly passed: number;
  /** Checks with at least one failure. */
  readonly failed: number;
  /** Checks that ran but could not judge any request. */
  readonly notJudged: number;
  /** Checks that never ran, each with its reason. */
  readonly notRun: number;
}

/** The outcome of a run. */
export interface ConformanceReport {
  /** The server checked. */
  readonly baseUrl: string;
  /** The seed used; pass it again to send the same requests. */
  readonly seed: number;
  /** Whether firing was allowed. */
  readonly allowFire: boolean;
  /** Requests sent. */
  readonly requests: number;
  /** Wall time of the run in milliseconds. */
  readonly durationMs: number;
  /** Why the run ended early, if it did. */
  readonly stopped: StopReason | undefined;
  /** Every check, in report order. */
  readonly checks: readonly CheckResult[];
  /** Every rule the service states (the catalog, `rules.yaml`): where the seed states it, the probe families run, the verdict. */
  readonly rules: readonly RuleResult[];
  /** Checks by outcome. */
  readonly counts: Counts;
  /** What was learnt about the open points. */
  readonly findings: readonly Finding[];
  /** Warnings: filters never exercised with results, a conversation that could not be confirmed. */
  readonly warnings: readonly string[];
  /** Every event the server accepted: real side effects on the server. */
  readonly sideEffects: readonly SideEffect[];
  /** Operations × documented statuses × parameters: what was exercised, and what returned data. */
  readonly coverage: readonly OperationCoverage[];
  /** Each relation of the catalog (`catalogRelations`): the requests it transformed, and how their answers compared. */
  readonly relations: readonly RelationCount[];
  /** Time per phase. */
  readonly phases: readonly PhaseTiming[];
  /** Failures the baseline does not list. */
  readonly newFailures: number;
  /** Whether the run found no new failure (known failures of the baseline do not count). */
  readonly passed: boolean;
}

/** The server did not answer, or refused the token: the run could not start (the command exits 2). */
export class ServerUnusableError extends Error {
  override name = "ServerUnusableError";
}

/** Runs every check against a server and returns the report; only an unusable server or bad options throw. */
export async function runConformance(options: ConformanceOptions, description: Description = bundledDescription()): Promise<ConformanceReport> {
  const resolved = resolveOptions(options);
  const started = performance.now();
  let phase = "probe";
  let stopReason: StopReason | undefined;
  const stop = new AbortController();
  const stopWith = (reason: StopReason): void => {
    stopReason ??= reason;
    stop.abort();
  };
  const timer = resolved.maxTimeMs === undefined ? undefined : setTimeout(() => stopWith("time"), resolved.maxTimeMs);
  const onAbort = (): void => stopWith("interrupted");
  resolved.signal.addEventListener("abort", onAbort, { once: true });
  if (resolved.signal.aborted) stopWith("interrupted");
  const transport = createTransport({
    ...resolved,
    deadline: resolved.maxTimeMs === undefined ? undefined : Date.now() + resolved.maxTimeMs,
    signal: stop.signal,
    onExchange: () => resolved.onProgress?.({ requests: transport.sent, maxRequests: resolved.maxRequests, phase }),
  });
  const results = new Results(
    resolved.baseUrl,
    resolved.selected,
    () => {
      if (resolved.maxFailures !== undefined && results.failureCount >= resolved.maxFailures) stopWith("failures");
    },
    (name, failure) => isKnownFailure(resolved.baseline, name, failure),
  );
  // A variant that HTTP would read as the token itself (no letters to re-case; a trailing space trimmed) is no wrong token.
  const session = new Session(transport, results, description, { ...resolved, badCredentials: badCredentials(resolved.token) });
  const timings: PhaseTiming[] = [];
  const warnings: string[] = [];
  /** Runs one phase of the table, timed and counted. */
  const runPhase = async (each: Phase, state: RunState): Promise<void> => {
    phase = each.name;
    session.phase = each.name;
    const phaseStarted = performance.now();
    const before = transport.sent;
    try {
      await each.run(session, state);
    } finally {
      timings.push({ phase: each.name, checks: [...each.checks], requests: transport.sent - before, durationMs: performance.now() - phaseStarted });
    }
  };

  // The probe decides whether the server can be checked at all; a run stopped before it answered
  // (Ctrl-C, --max-time) still reports, with every check not run.
  let probed = false;
  try {
    const probe = await transport.send({
      operationId: "searchConversations",
      method: "GET",
      path: description.operations.get("searchConversations")!.path,
      query: {},
      authentication: "token",
    });
    // Every request with the token would fail: find out what the server refuses before blaming the token.
    if (probe.status === 401) throw new ServerUnusableError(redactToken(await blameForRefusal(resolved, description), resolved.token));
    session.judge(probe);
    probed = true;
  } catch (error) {
    if (error instanceof RateLimitedError) {
      stopWith("rate-limit");
      warnings.push(`The run could not finish within its bounds: ${error.message}.`);
    } else if (!(error instanceof StoppedError)) {
      clearTimeout(timer);
      resolved.signal.removeEventListener("abort", onAbort);
      if (error instanceof UnreachableError) {
        throw new ServerUnusableError(
          `The server at ${resolved.baseUrl} ${/maxResponseBytes/.test(error.message) ? "cannot be read" : "is unreachable"}: ${error.message}`,
        );
      }
      throw error;
    }
  }

  const state: RunState = { discovery: { triggerList: undefined, precedence: undefined }, findings: [], warnings };
  try {
    if (!probed) throw new StoppedError("stopped before the first answer");
    // The table of phases drives the run (and `--dry-run`'s plan): each runs in turn, unless its conditions say why not.
    for (const each of phases) {
      const conditions = { allowFire: resolved.allowFire, triggersListed: state.listed !== undefined };
      const reason = each.unless?.(conditions);
      if (reason === undefined) await runPhase(each, state);
      else for (const name of checksLeftOut(each, conditions)) results.skip(name, reason);
    }
  } catch (error) {
    if (error instanceof RateLimitedError) {
      stopWith("rate-limit");
      warnings.push(`The run could not finish within its bounds: ${error.message}.`);
    } else if (!(error instanceof BudgetExhaustedError || error instanceof StoppedError)) throw error;
  } finally {
    clearTimeout(timer);
    resolved.signal.removeEventListener("abort", onAbort);
  }
  // Discovery reads what was already seen; run it on the partial data when the run was cut short.
  const findings =
    state.findings.length > 0 || session.knowledge.pages.length === 0 ? state.findings : await discover(session, state.discovery).catch(() => []);
  const stopped: StopReason | undefined = stopReason ?? (transport.sent >= resolved.maxRequests ? "budget" : undefined);
  if (resolved.maxResponseTimeMs === undefined) results.skip("max_response_time", "opt-in: pass --max-response-time <ms>");
  if (![...description.operations.values()].some((operation) => [...operation.responses.values()].some((response) => response.headers.length > 0))) {
    results.skip("response_headers_conformance", "the description documents no response header");
  }
  const checks = results.finish(stopped);
  const newFailures = applyBaseline(checks, resolved.baseline);
  const coverage = coverageOf(description, session.knowledge.log);
  warnings.push(...session.warnings, ...weakDataWarnings(coverage));
  const count = (status: CheckResult["status"]): number => checks.filter((check) => check.status === status).length;
  // The whole report once more through the redactor: a token echoed anywhere (a header's name or value, a
  // finding, a warning) reaches no report, whatever path brought it in.
  return redactTokenJson<ConformanceReport>(
    {
      baseUrl: resolved.baseUrl,
      seed: resolved.seed,
      allowFire: resolved.allowFire,
      requests: transport.sent,
      durationMs: performance.now() - started,
      stopped,
      checks,
      rules: results.rules(checks),
      counts: { passed: count("passed"), failed: count("failed"), notJudged: count("not judged"), notRun: count("not run") },
      findings: findings.map((finding) => ({
        ...finding,
        ...(resolved.baseline ? { accepted: JSON.stringify(resolved.baseline.findings[finding.name]) === JSON.stringify(finding.value) } : {}),
      })),
      warnings,
      sideEffects: session.knowledge.log.flatMap((entry) =>
        entry.exchange ? [{ request: requestLineOf(resolved.baseUrl, entry.exchange.case), status: entry.status }] : [],
      ),
      coverage,
      relations: catalogRelations.map((relation) => ({ ...session.relationCount(relation) })),
      phases: timings,
      newFailures,
      // A run that reached no verdict (stopped before any answer, or every check not judged) verified nothing: it does not pass.
      passed: newFailures === 0 && count("passed") + count("failed") > 0,
    },
    resolved.token,
  );
}
