/**
 * The small middleware of the request pipeline that belong to the app (the observer's, request id, log line and
 * metrics, are `observe/`'s; who may call a route is `security.ts`): the control API's Host and Origin guard,
 * CORS for browsers, the request journal, and a workspace's own handling of a service operation (a recording
 * replayed, the latency option, armed faults). Each is made once per route, with what the route's operation says.
 */
import { type Fault, noFault, type OperationId } from "../data/faults.ts";
import type { Random } from "../data/random.ts";
import { defaultWorkspace } from "../data/store.ts";
import { Answer, emptyAnswer } from "../operations/answer.ts";
import { problemAnswer } from "../operations/problem.ts";
import { bodyRead } from "../operations/request.ts";
import type { Delay, Latency } from "../options.ts";
import type { Handler, Middleware, RequestContext, SandboxContext, SandboxHost } from "./context.ts";
import { controlGuard } from "./guard.ts";
import { bodyForJournal, type JournalBody, journalBodyOf, refusedBodyNote } from "./journal.ts";

/** The control API's guard over HTTP (`guard.ts`): a request over the network from a Host or Origin it does not answer is refused `403`. */
export function guarded(host: SandboxHost): Middleware {
  const guard = controlGuard(host.main().context.options);
  return (c, next) => {
    if (!c.network) return next(c);
    const refused = guard(c.req.header("host"), c.req.header("origin"));
    return refused ? problemAnswer(host.main().context.options.errorMediaType, 403, refused) : next(c);
  };
}

/** The headers a browser may read on any answer (CORS): the same for every route. */
const exposedHeaders = "Retry-After,X-Request-Id,Allow,Location";

/** How long a browser may keep a preflight's answer, in seconds (our choice, as the mock's). */
const preflightMaxAgeSeconds = "600";

/**
 * CORS for a browser's request (one with an Origin), as the mock (Prism) answers it: a preflight (an OPTIONS with an
 * Origin; no token needed) is answered `204` with the origin reflected, the methods the path answers (`methods`),
 * every header it asks for, and Private Network Access when asked; every other answer, a refusal included, gets the
 * origin reflected and the exposed headers. A request without an Origin passes untouched.
 */
export function browsers(methods: (c: RequestContext) => string[]): Middleware {
  return (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined) return next(c);
    if (c.req.method === "OPTIONS") {
      const headers = [
        "access-control-allow-origin",
        origin,
        "access-control-expose-headers",
        exposedHeaders,
        "vary",
        "Origin",
        "access-control-max-age",
        preflightMaxAgeSeconds,
      ];
      const allowed = methods(c);
      if (allowed.length > 0) headers.push("access-control-allow-methods", allowed.join(","));
      const asked = c.req.header("access-control-request-headers");
      const reflected = asked
        ?.split(",")
        .map((name) => name.trim())
        .join(",");
      if (reflected) headers.push("access-control-allow-headers", reflected, "vary", "Access-Control-Request-Headers");
      if (c.req.header("access-control-request-private-network") === "true") headers.push("access-control-allow-private-network", "true");
      return new Answer(204, null, headers);
    }
    const cors = ["access-control-allow-origin", origin, "access-control-expose-headers", exposedHeaders, "vary", "Origin"];
    const answer = next(c);
    return answer instanceof Promise ? answer.then((answered) => answered.withHeaders(cors)) : answer.withHeaders(cors);
  };
}

/**
 * The request journal of the workspace a request reached (the default one when its token picked none), around the
 * rest: every request of the service's paths but browsers' preflights, once answered, with `operationId` when its
 * token was accepted. What the journal keeps is turned into records only when read, so a request pays for a few
 * fields, not for copies. The body the route read is kept as it read it (no copy of the stream); a GET has none
 * (reading `body` would make the server build a whole Request for nothing); the body of a request the token check
 * refused is never read, so a flood of them holds no memory. A request a recording answered is not journaled.
 */
export function journaled(host: SandboxHost, operationId: OperationId | undefined): Middleware {
  return (c, next) => {
    if (c.req.method === "OPTIONS") return next(c);
    const receivedAt = Date.now();
    const answer = next(c);
    return answer instanceof Promise
      ? answer.then((response) => journal(host, operationId, c, response, receivedAt))
      : journal(host, operationId, c, answer, receivedAt);
  };
}

/** Adds an answered request to the journal of its workspace (see `journaled`); resolves to its answer. */
function journal(host: SandboxHost, operationId: OperationId | undefined, c: RequestContext, answer: Answer, receivedAt: number): Answer | Promise<Answer> {
  const durationMs = c.answeredAfterMs();
  if (c.get("replayed")) return answer;
  const authorized = c.get("workspace") !== undefined;
  const { method } = c.req;
  // A GET or a HEAD has no body to look for: its body reader is never made.
  const bodiless = method === "GET" || method === "HEAD";
  const read = bodiless ? undefined : bodyRead(c.req.body);
  const body =
    read !== undefined
      ? journalBodyOf(read)
      : // Whether there is a body, as its transport tells from the headers (never reading it).
        bodiless || !c.req.body.present
        ? null
        : authorized
          ? bodyForJournal(c.req.body)
          : { note: refusedBodyNote };
  const entry = { host, operationId: authorized ? operationId : undefined, c, answer, receivedAt, durationMs };
  return body instanceof Promise ? body.then((text) => added(entry, text)) : added(entry, body);
}

/** The request added to the journal of the workspace its token picked (the default one's when none). */
function added(
  entry: {
    host: SandboxHost;
    operationId: OperationId | undefined;
    c: RequestContext;
    answer: Answer;
    receivedAt: number;
    durationMs: number;
  },
  body: JournalBody,
): Answer {
  const { host, operationId, c, answer, receivedAt, durationMs } = entry;
  (c.get("workspace") ?? host.main()).context.requests.add(
    {
      receivedAt,
      method: c.req.method,
      target: c.req.target,
      path: c.req.path,
      headers: c.req.rawHeaders,
      body,
      status: answer.status,
      durationMs,
    },
    operationId,
  );
  return answer;
}

/** A recording's answer to a request of the default workspace that it holds (`SandboxHost.replay`): the rest of the route is skipped. */
export function replayed(host: SandboxHost): Middleware | undefined {
  const { replay } = host;
  if (replay === undefined) return undefined;
  return async (c, next) => {
    if (c.get("workspace")?.name !== defaultWorkspace) return next(c);
    const recorded = await replay.answer(c.req.raw);
    if (recorded === undefined) return next(c);
    c.set("replayed", true);
    return answerOfResponse(recorded);
  };
}

/**
 * A service operation in its workspace (`c.get("workspace")`, set by the security middleware): the latency option
 * first, then the first armed fault of the operation, if any (a time-out, a delay, then its status or the
 * operation's answer).
 */
export function faultsOf(operationId: OperationId): Middleware {
  return (c, next) => {
    const { context } = c.get("workspace")!;
    const latency = latencyOf(context.options.latency, operationId, context.latencyDraws);
    // Most requests wait for nothing: they are answered at once, without a promise or a closure of their own.
    return latency > 0 ? sleep(latency, c.req.signal).then(() => unlessFaulted(c, next, context, operationId)) : unlessFaulted(c, next, context, operationId);
  };
}

/** The rest of the route, or the first armed fault of the operation (see `faultsOf`). */
function unlessFaulted(c: RequestContext, next: Handler, context: SandboxContext, operationId: OperationId): Answer | Promise<Answer> {
  // Every store answers with a promise: absorbed here, once. Most requests meet no armed fault, which every store
  // answers with the one settled `noFault`: those go on at once, so a search is answered without a promise.
  const taken = context.faults.take(operationId);
  return taken === noFault ? next(c) : taken.then((fault) => (fault ? faulted(c, operationId, fault, context.options.errorMediaType, () => next(c)) : next(c)));
}

/** An armed fault applied to a request of the operation: a time-out, a delay, then its status or the operation's answer. */
async function faulted(c: RequestContext, operationId: OperationId, fault: Fault, mediaType: string, answer: () => Answer | Promise<Answer>): Promise<Answer> {
  if (fault.timeout) {
    // Never answered: the request waits until its client gives up (or the server stops).
    await new Promise((resolve) => c.req.signal.addEventListener("abort", resolve, { once: true }));
    return emptyAnswer(504);
  }
  if (fault.delayMs > 0) await sleep(fault.delayMs, c.req.signal);
  if (fault.status >= 300) {
    const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) };
    return problemAnswer(mediaType, fault.status, `Fault injected by the sandbox for ${operationId}.`, undefined, headers);
  }
  return answer();
}

/** A recorded answer (a `Response`, `data/exchanges.ts`) as the pipeline's own: its status, headers and body, read whole. */
async function answerOfResponse(response: Response): Promise<Answer> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  return new Answer(response.status, response.body === null ? null : new Uint8Array(await response.arrayBuffer()), headers);
}

/** The wait the latency option gives an operation: fixed, or drawn from its range. */
function latencyOf(latency: Latency, operationId: OperationId, draws: Random): number {
  const delay: Delay | undefined = typeof latency === "number" || "min" in latency ? latency : latency[operationId];
  if (delay === undefined) return 0;
  return typeof delay === "number" ? delay : draws.int(delay.min, delay.max);
}

/** Waits `ms` milliseconds, or less when the request is aborted (the client gave up). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
