import { applyBaseline, isKnownFailure } from "./baseline.ts";
import { requestLineOf, tokenFor } from "./case.ts";
import type { CheckName } from "./checks/index.ts";
import { coverageOf, weakDataWarnings, type OperationCoverage } from "./coverage.ts";
import { loadDescription, type Description } from "./description.ts";
import { discover, type DiscoveryInput, type Finding } from "./discovery.ts";
import { resolveOptions, type ConformanceOptions } from "./options.ts";
import { checkAuthentication } from "./phases/auth.ts";
import { exploreEdges } from "./phases/edges.ts";
import { checkExports } from "./phases/export.ts";
import { checkBotFilter, checkEmptySearches, checkFilterCombinations } from "./phases/filters.ts";
import { checkFireNotFound, checkPayloadForms, checkPayloads, exploreInvalidFire, probeIdentifierPrecedence } from "./phases/fire.ts";
import { confirmBot, confirmConversation } from "./phases/preflight.ts";
import { checkAcceptNegotiation, checkUnsupportedMethods } from "./phases/protocol.ts";
import { exploreInvalidSearch, exploreSearch, probeSearch, walkPages } from "./phases/search.ts";
import { exploreTriggers, listTriggers, unknownBot } from "./phases/triggers.ts";
import { Results, type CheckResult } from "./results.ts";
import { Session } from "./session.ts";
import { redactTokenJson } from "./redact.ts";
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
export async function runConformance(options: ConformanceOptions, description: Description = loadDescription()): Promise<ConformanceReport> {
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
  const tokenVariants = (["case", "spaced"] as const).filter((variant) => tokenFor(variant, resolved.token)?.trim() !== resolved.token);
  const session = new Session(transport, results, description, { ...resolved, tokenVariants });
  const phases: PhaseTiming[] = [];
  const warnings: string[] = [];
  const timed = async <T>(name: string, checks: CheckName[], body: () => Promise<T>): Promise<T | undefined> => {
    phase = name;
    const phaseStarted = performance.now();
    const before = transport.sent;
    try {
      return await body();
    } finally {
      phases.push({ phase: name, checks, requests: transport.sent - before, durationMs: performance.now() - phaseStarted });
    }
  };

  // The probe decides whether the server can be checked at all; a run stopped before it answered
  // (Ctrl-C, --max-time) still reports, with every check not run.
  let probed = false;
  try {
    const probe = await transport.send({ operationId: "searchConversations", method: "GET", path: description.operations.get("searchConversations")!.path, query: {}, authentication: "token" });
    if (probe.status === 401) throw new ServerUnusableError(`The server at ${resolved.baseUrl} refused the token (401 on searchConversations); check --token.`);
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
        throw new ServerUnusableError(`The server at ${resolved.baseUrl} ${/maxResponseBytes/.test(error.message) ? "cannot be read" : "is unreachable"}: ${error.message}`);
      }
      throw error;
    }
  }

  const discoveryInput: { -readonly [Key in keyof DiscoveryInput]: DiscoveryInput[Key] } = { triggerList: undefined, precedence: undefined };
  let findings: Finding[] = [];
  try {
    if (!probed) throw new StoppedError("stopped before the first answer");
    await timed("preflight: --agent-stage-id", [], () => confirmBot(session));
    await timed("searchConversations: first page", ["envelope_math"], () => probeSearch(session));
    await timed("searchConversations: walk every page", ["paging_walk"], () => walkPages(session));
    const unconfirmed = await timed("preflight: the conversation to fire into", [], () => confirmConversation(session));
    if (unconfirmed) warnings.push(unconfirmed);
    await timed("searchConversations: edges", ["positive_data_acceptance", "negative_data_rejection", "envelope_math", "filter_match", "filter_inclusion"], () => exploreEdges(session));
    await timed("searchConversations: combined filters", ["filter_combination", "envelope_math", "filter_match"], () => checkFilterCombinations(session));
    discoveryInput.unknownBotSearch = await timed("searchConversations: the bot filter and searches that match nothing", ["bot_filter_match", "empty_search_page", "filter_match"], async () => {
      const status = await checkBotFilter(session);
      await checkEmptySearches(session);
      return status;
    });
    await timed("searchConversations: generated requests", ["positive_data_acceptance", "envelope_math", "filter_match"], () => exploreSearch(session));
    await timed("searchConversations: invalid requests", ["negative_data_rejection"], () => exploreInvalidSearch(session));
    await timed("listExternalEventTriggers: generated requests", ["positive_data_acceptance"], () => exploreTriggers(session));
    await timed("listExternalEventTriggers: unknown bot", ["unknown_bot_not_found"], () => unknownBot(session));
    const listed = await timed("listExternalEventTriggers: the bot's triggers", [], () => listTriggers(session));
    discoveryInput.triggerList = listed?.exchange;
    discoveryInput.unknownBotWrongToken = await timed("every operation: authentication", ["ignored_auth"], () => checkAuthentication(session, listed?.triggers ?? []));
    await timed("every path: Accept and undocumented methods", ["accept_negotiation", "unsupported_method"], async () => {
      await checkAcceptNegotiation(session);
      await checkUnsupportedMethods(session);
    });
    await timed("export route", ["response_schema_conformance"], () => checkExports(session));
    if (resolved.allowFire) {
      const triggers = listed?.triggers ?? [];
      await timed("fireExternalEvent: invalid requests", ["negative_data_rejection"], () => exploreInvalidFire(session, triggers));
      await timed("fireExternalEvent: unknown trigger and conversation", ["unknown_trigger_not_found", "unknown_conversation_not_found"], () => checkFireNotFound(session, triggers));
      if (!listed) {
        for (const name of ["payload_validation_rejection", "payload_acceptance", "payload_optional", "payload_shape_rejection"] as const) results.skip(name, "needs --agent-stage-id: the variables come from the bot's triggers");
      } else {
        await timed("fireExternalEvent: variable values", ["payload_validation_rejection", "payload_acceptance"], () => checkPayloads(session, triggers));
        discoveryInput.unlistedVariable = await timed("fireExternalEvent: payload present or not, and its shape", ["payload_optional", "payload_shape_rejection"], () => checkPayloadForms(session, triggers));
        discoveryInput.precedence = await timed("fireExternalEvent: both identifiers", [], () => probeIdentifierPrecedence(session, triggers));
      }
    } else {
      for (const name of ["unknown_trigger_not_found", "unknown_conversation_not_found", "payload_validation_rejection", "payload_acceptance", "payload_optional", "payload_shape_rejection"] as const) {
        results.skip(name, "firing is off: pass --allow-fire with --conversation-id");
      }
    }
    findings = (await timed("discovery of open points", [], () => discover(session, discoveryInput))) ?? [];
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
  if (findings.length === 0 && session.knowledge.pages.length > 0) {
    findings = await discover(session, discoveryInput).catch(() => []);
  }
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
  return redactTokenJson<ConformanceReport>({
    baseUrl: resolved.baseUrl,
    seed: resolved.seed,
    allowFire: resolved.allowFire,
    requests: transport.sent,
    durationMs: performance.now() - started,
    stopped,
    checks,
    counts: { passed: count("passed"), failed: count("failed"), notJudged: count("not judged"), notRun: count("not run") },
    findings: findings.map((finding) => ({ ...finding, ...(resolved.baseline ? { accepted: JSON.stringify(resolved.baseline.findings[finding.name]) === JSON.stringify(finding.value) } : {}) })),
    warnings,
    sideEffects: session.knowledge.log.flatMap((entry) => (entry.exchange ? [{ request: requestLineOf(resolved.baseUrl, entry.exchange.case), status: entry.status }] : [])),
    coverage,
    phases,
    newFailures,
    // A run that reached no verdict (stopped before any answer, or every check not judged) verified nothing: it does not pass.
    passed: newFailures === 0 && count("passed") + count("failed") > 0,
  }, resolved.token);
}
