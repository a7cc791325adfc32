import { checkNames, type CheckName } from "./checks/index.ts";
import { loadDescription, type Description } from "./description.ts";
import { discover, type DiscoveryInput, type Finding } from "./discovery.ts";
import { resolveOptions, type ConformanceOptions } from "./options.ts";
import { checkAuthentication } from "./phases/auth.ts";
import { checkExports } from "./phases/export.ts";
import { checkFireNotFound, checkPayloads, exploreInvalidFire, probeIdentifierPrecedence } from "./phases/fire.ts";
import { exploreInvalidSearch, exploreSearch, probeSearch, walkPages } from "./phases/search.ts";
import { exploreTriggers, listTriggers, unknownBot } from "./phases/triggers.ts";
import { Results, type CheckResult } from "./results.ts";
import { Session } from "./session.ts";
import { BudgetExhaustedError, createTransport, StoppedError, UnreachableError } from "./transport.ts";

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
  /** Why the run ended early, if it did: `interrupted` (Ctrl-C / signal) or `budget` (`--max-requests`). */
  readonly stopped: "interrupted" | "budget" | undefined;
  /** Every check, in report order. */
  readonly checks: readonly CheckResult[];
  /** What was learnt about the open points. */
  readonly findings: readonly Finding[];
  /** Time per phase. */
  readonly phases: readonly PhaseTiming[];
  /** Whether every check that ran held. */
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
  const transport = createTransport({
    ...resolved,
    onExchange: () => resolved.onProgress?.({ requests: transport.sent, maxRequests: resolved.maxRequests, phase }),
  });
  const results = new Results(resolved.baseUrl);
  const session = new Session(transport, results, description, resolved);
  const phases: PhaseTiming[] = [];
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

  // The probe decides whether the server can be checked at all.
  let probe;
  try {
    probe = await transport.send({ operationId: "searchConversations", method: "GET", path: description.operations.get("searchConversations")!.path, query: {}, authentication: "token" });
  } catch (error) {
    if (error instanceof UnreachableError) throw new ServerUnusableError(`The server at ${resolved.baseUrl} is unreachable: ${error.message}`);
    throw error;
  }
  if (probe.status === 401) throw new ServerUnusableError(`The server at ${resolved.baseUrl} refused the token (401 on searchConversations); check --token.`);

  const discoveryInput: { triggerList: DiscoveryInput["triggerList"]; precedence: DiscoveryInput["precedence"] } = { triggerList: undefined, precedence: undefined };
  let findings: Finding[] = [];
  try {
    await timed("searchConversations: first page", ["envelope_math"], () => probeSearch(session));
    await timed("searchConversations: generated requests", ["positive_data_acceptance", "envelope_math", "filter_match"], () => exploreSearch(session));
    await timed("searchConversations: invalid requests", ["negative_data_rejection"], () => exploreInvalidSearch(session));
    await timed("searchConversations: walk every page", ["paging_walk"], () => walkPages(session));
    await timed("listExternalEventTriggers: generated requests", ["positive_data_acceptance"], () => exploreTriggers(session));
    await timed("listExternalEventTriggers: unknown bot", ["unknown_bot_not_found"], () => unknownBot(session));
    const listed = await timed("listExternalEventTriggers: the bot's triggers", [], () => listTriggers(session));
    discoveryInput.triggerList = listed?.exchange;
    await timed("every operation: authentication", ["ignored_auth"], () => checkAuthentication(session));
    await timed("export route", ["response_schema_conformance"], () => checkExports(session));
    if (resolved.allowFire) {
      const triggers = listed?.triggers ?? [];
      await timed("fireExternalEvent: invalid requests", ["negative_data_rejection"], () => exploreInvalidFire(session, triggers));
      await timed("fireExternalEvent: unknown trigger and conversation", ["unknown_trigger_not_found", "unknown_conversation_not_found"], () => checkFireNotFound(session, triggers));
      if (!listed) {
        for (const name of ["payload_validation_rejection", "payload_acceptance"] as const) results.skip(name, "needs --agent-stage-id: the variables come from the bot's triggers");
      } else {
        await timed("fireExternalEvent: variable values", ["payload_validation_rejection", "payload_acceptance"], () => checkPayloads(session, triggers));
        discoveryInput.precedence = await timed("fireExternalEvent: both identifiers", [], () => probeIdentifierPrecedence(session, triggers));
      }
    } else {
      for (const name of ["unknown_trigger_not_found", "unknown_conversation_not_found", "payload_validation_rejection", "payload_acceptance"] as const) {
        results.skip(name, "firing is off: pass --allow-fire with --conversation-id");
      }
    }
    findings = (await timed("discovery of open points", [], () => discover(session, discoveryInput))) ?? [];
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError || error instanceof StoppedError)) throw error;
  }
  // Discovery reads what was already seen; run it on the partial data when the run was cut short.
  if (findings.length === 0 && session.knowledge.pages.length > 0) {
    findings = await discover(session, discoveryInput).catch(() => []);
  }
  const stopped = resolved.signal.aborted ? "interrupted" : transport.sent >= resolved.maxRequests ? "budget" : undefined;
  const checks = checkNames.map((name) => results.checks.get(name)!);
  return {
    baseUrl: resolved.baseUrl,
    seed: resolved.seed,
    allowFire: resolved.allowFire,
    requests: transport.sent,
    durationMs: performance.now() - started,
    stopped,
    checks,
    findings,
    phases,
    passed: !results.hasFailures,
  };
}
