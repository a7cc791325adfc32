/**
 * The small middleware of the request pipeline that belong to the app (the observer's, request id, log line and
 * metrics, are `observe/`'s; who may call a route is `security.ts`): the control API's Host and Origin guard,
 * CORS for browsers, the request journal, and a workspace's own handling of a service operation (a recording
 * replayed, the latency option, armed faults). Each is made once per route, with what the route's operation says.
 */
import type { Context } from "hono";
import { cors } from "hono/cors";
import type { Fault, OperationId } from "../data/faults.ts";
import type { Random } from "../data/random.ts";
import { defaultWorkspace } from "../data/store.ts";
import { problemResponse } from "../operations/problem.ts";
import { bodyRead } from "../operations/request.ts";
import type { Delay, Latency } from "../options.ts";
import type { AppEnv, Middleware, SandboxHost } from "./context.ts";
import { controlGuard } from "./guard.ts";
import { bodyForJournal, type JournalBody, journalBodyOf, refusedBodyNote } from "./journal.ts";

/** The control API's guard over HTTP (`guard.ts`): a request over the network from a Host or Origin it does not answer is refused `403`. */
export function guarded(host: SandboxHost): Middleware {
  const guard = controlGuard(host.main().context.options);
  return (c, next) => {
    if (!c.env?.network) return next(c);
    const refused = guard(c.req.header("host"), c.req.header("origin"));
    return refused ? problemResponse(host.main().context.options.errorMediaType, 403, refused) : next(c);
  };
}

/**
 * CORS for a browser's request (one with an Origin), as the mock (Prism) answers it: a preflight (no token needed)
 * gets every header it asks for (`allowHeaders` unset reflects them), the methods the path answers (`methods`),
 * and Private Network Access when asked; every other answer, a refusal included, the exposed headers. A request
 * without an Origin passes untouched: adding headers to a finished response copies it.
 */
export function browsers(methods: (c: Context<AppEnv>) => string[]): Middleware {
  const allow = cors({
    origin: (origin) => origin,
    allowMethods: (_origin, c) => methods(c as Context<AppEnv>),
    exposeHeaders: ["Retry-After", "X-Request-Id", "Allow", "Location"],
    maxAge: 600,
  });
  return async (c, next) => {
    if (c.req.header("origin") === undefined) return next(c);
    const answer = await allow(c, async () => {
      c.res = await next(c);
    });
    if (!(answer instanceof Response)) return c.res;
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-private-network") === "true")
      answer.headers.set("access-control-allow-private-network", "true");
    return answer;
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
    const started = performance.now();
    const answer = next(c);
    return answer instanceof Promise
      ? answer.then((response) => journal(host, operationId, c, response, receivedAt, started))
      : journal(host, operationId, c, answer, receivedAt, started);
  };
}

/** Adds an answered request to the journal of its workspace (see `journaled`); resolves to its answer. */
function journal(
  host: SandboxHost,
  operationId: OperationId | undefined,
  c: Context<AppEnv>,
  answer: Response,
  receivedAt: number,
  started: number,
): Response | Promise<Response> {
  const durationMs = performance.now() - started;
  if (c.get("replayed")) return answer;
  const authorized = c.get("workspace") !== undefined;
  const { method } = c.req;
  const read = bodyRead(c.req.raw);
  const body =
    read !== undefined
      ? journalBodyOf(read)
      : method === "GET" || method === "HEAD" || !hasContent(c.req.raw)
        ? null
        : authorized
          ? bodyForJournal(c.req.raw)
          : { note: refusedBodyNote };
  const entry = { host, operationId: authorized ? operationId : undefined, c, answer, receivedAt, durationMs };
  return body instanceof Promise ? body.then((text) => added(entry, text)) : added(entry, body);
}

/** The request added to the journal of the workspace its token picked (the default one's when none). */
function added(
  entry: {
    host: SandboxHost;
    operationId: OperationId | undefined;
    c: Context<AppEnv>;
    answer: Response;
    receivedAt: number;
    durationMs: number;
  },
  body: JournalBody,
): Response {
  const { host, operationId, c, answer, receivedAt, durationMs } = entry;
  (c.get("workspace") ?? host.main()).context.requests.add(
    {
      receivedAt,
      method: c.req.method,
      url: c.req.url,
      path: c.req.path,
      headers: c.env?.rawHeaders ?? c.req.raw.headers,
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
    const answer = await replay.answer(c.req.raw);
    if (answer === undefined) return next(c);
    c.set("replayed", true);
    return answer;
  };
}

/**
 * A service operation in its workspace (`c.var.workspace`, set by the security middleware): the latency option
 * first, then the first armed fault of the operation, if any (a time-out, a delay, then its status or the
 * operation's answer).
 */
export function faultsOf(operationId: OperationId): Middleware {
  return (c, next) => {
    const { context } = c.get("workspace")!;
    const { options } = context;
    // Every store answers with a promise (in memory, one already settled): absorbed here, once.
    const answer = () =>
      context.faults.take(operationId).then((fault) => (fault ? faulted(c, operationId, fault, options.errorMediaType, () => next(c)) : next(c)));
    const latency = latencyOf(options.latency, operationId, context.latencyDraws);
    // Most requests wait for nothing: they are answered at once, without a promise of their own.
    return latency > 0 ? sleep(latency, c.req.raw.signal).then(answer) : answer();
  };
}

/** An armed fault applied to a request of the operation: a time-out, a delay, then its status or the operation's answer. */
async function faulted(
  c: Context<AppEnv>,
  operationId: OperationId,
  fault: Fault,
  mediaType: string,
  answer: () => Response | Promise<Response>,
): Promise<Response> {
  if (fault.timeout) {
    // Never answered: the request waits until its client gives up (or the server stops).
    await new Promise((resolve) => c.req.raw.signal.addEventListener("abort", resolve, { once: true }));
    return new Response(null, { status: 504 });
  }
  if (fault.delayMs > 0) await sleep(fault.delayMs, c.req.raw.signal);
  if (fault.status >= 300) {
    const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) };
    return problemResponse(mediaType, fault.status, `Fault injected by the sandbox for ${operationId}.`, undefined, headers);
  }
  return answer();
}

/**
 * Whether a request has a body, read from its headers where it has them: reading `body` of the server's
 * request builds a stream, and the server then reads the body through it rather than in one call.
 */
function hasContent(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return length !== "0";
  return request.headers.has("transfer-encoding") || request.body !== null;
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
