/**
 * What a sandbox made by `createSandbox` does around every request, in every mode (in memory, `--data`,
 * PostgreSQL): a request id (the client's `X-Request-Id`, or one made here, answered in that header), one
 * log line and the metrics once it is answered, `GET /_sandbox/metrics` for the administrator, and a
 * graceful drain (readiness `503` while the requests in flight finish). It wraps the sandbox's handler
 * (`OpenSandbox.handle`), so the workspaces' one app and the MSW handlers know nothing of it, and hears
 * the sandbox's events (`SandboxEvents`): workspaces created, removed and evicted, the store lost and
 * back, changes heard from other replicas.
 */
import { randomUUID } from "node:crypto";
import type { OpenSandbox, Sandbox, SandboxEvents } from "../core.ts";
import { sandboxOperationOf } from "../description.ts";
import type { AppEnv } from "../http/app.ts";
import { controlGuard } from "../http/guard.ts";
import type { ServedSandbox } from "../http/server.ts";
import { tokenAccepted } from "../http/token.ts";
import { problemResponse } from "../operations/problem.ts";
import type { SandboxOptions } from "../options.ts";
import { droppedLogLines, type SandboxLogger, silentLogger } from "./log.ts";
import { type DatabaseProbe, SandboxMetrics } from "./metrics.ts";

/** A change heard this long after another replica announced it is logged as lagging (our choice). */
export const notificationLagWarningMs = 1_000;

/** What observes a sandbox: where it logs (quiet unless given a logger), its own metrics, and what it hears of the sandbox. */
export interface Observer {
  /** The log. */
  readonly logger: SandboxLogger;
  /** The sandbox's metrics, in its own registry. */
  readonly metrics: SandboxMetrics;
  /** What the sandbox tells: logged and counted. */
  readonly events: SandboxEvents;
  /** A shared sandbox's database, opened: logged (by its URL with the password already replaced) and measured by the metrics. */
  useDatabase(redactedUrl: string, probe: DatabaseProbe): void;
}

/** A new observer: the logger given (or a silent one) and a registry of its own. */
export function newObserver(given: SandboxLogger | undefined): Observer {
  const logger = given ?? silentLogger;
  const metrics = new SandboxMetrics();
  metrics.countDroppedLogLinesWith(() => droppedLogLines(logger));
  let database: string | undefined;
  return {
    logger,
    metrics,
    useDatabase: (redactedUrl, probe) => {
      database = redactedUrl;
      metrics.useDatabase(probe);
      logger.info({ database }, "database connected");
    },
    events: {
      answeredBy: (env, workspace) => {
        if (env.observation) env.observation.workspace = workspace;
      },
      workspaceCreated: (workspace) => logger.info({ workspace }, "workspace created"),
      workspaceRemoved: (workspace) => logger.info({ workspace }, "workspace removed"),
      workspaceEvicted: () => metrics.workspaceEvicted(),
      changeHeard: ({ workspace, change, announcedAt }) => {
        if (announcedAt === undefined) return;
        const lagMs = Date.now() - announcedAt;
        metrics.notificationLag(lagMs / 1000);
        if (lagMs > notificationLagWarningMs) logger.warn({ workspace, change, lagMs }, "replica notification lagging");
      },
      storeLost: () => {
        metrics.databaseUp(false);
        logger.warn({ database }, "database lost: requests that need it are answered 503 until it is back");
      },
      storeBack: () => {
        metrics.databaseUp(true);
        logger.info({ database }, "database back: every loaded workspace is read again");
      },
    },
  };
}

/** A sandbox observed: the sandbox's methods, its handler through the observer, and a drain for a graceful stop. */
export type ObservedSandbox = Sandbox & ServedSandbox & { drain(boundMs: number): Promise<void> };

/** What the inner layers tell the observer of a request: the workspace that answered it (a shared sandbox's). */
type Observation = NonNullable<AppEnv["Bindings"]["observation"]>;

/**
 * How long a request answered over HTTP waits, at most, for its log line and its metrics (our choice), and how
 * many answered requests wait at most: see `observeSandbox`.
 */
export const recordEveryMs = 20;
export const recordBatchLimit = 4096;

/** A request answered, as its log line and the metrics record it. */
interface Answered {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly workspace: string | undefined;
  readonly status: number;
  readonly durationMs: number;
}

/** The route of the metrics. */
export const metricsPath = "/_sandbox/metrics";

/** The longest `X-Request-Id` kept as the client sent it (and what it may hold); another is replaced by a new id. */
const requestIdPattern = /^[\w.:@/+=-]{1,128}$/;

/** The operationId a request was sent to (a HEAD as its GET), `index` for `/`, or `none` for a path and method the descriptions do not have (bounded: never an id). */
export function operationOf(method: string, pathname: string): string {
  if (pathname === "/" && (method === "GET" || method === "HEAD")) return "index";
  return sandboxOperationOf(method, pathname)?.operation.id ?? "none";
}

/**
 * The path of a request's URL, without its query: `Request` (and the Node adapter) hand over an absolute URL,
 * so it starts at the first `/` after the scheme's `//` (as Hono's router reads it), with no `URL` parsed.
 */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const fragment = url.indexOf("#", start);
  const end = Math.min(query === -1 ? url.length : query, fragment === -1 ? url.length : fragment);
  return url.slice(start, end);
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case, RFC 6750), or `undefined`. */
export function bearerToken(authorization: string | null): string | undefined {
  return /^bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
}

/**
 * Observes a sandbox: its `fetch` and the handler its server calls go through the observer.
 * `GET /_sandbox/metrics` answers the administrator token when the sandbox has one, else any accepted
 * `--token` (our choice; the metrics hold no data, only counts), with the control API's Host and Origin
 * guard over HTTP.
 */
export function observeSandbox(sandbox: OpenSandbox, observer: Observer): ObservedSandbox {
  const { logger, metrics } = observer;
  metrics.countLoadedWith(() => sandbox.loadedWorkspaces);
  const drain = { draining: false, inFlight: 0, idle: [] as (() => void)[] };
  const options = (): SandboxOptions => sandbox.options;
  const guard = controlGuard(sandbox.options);
  /** Whether the token is one the metrics answer (the sandbox's one comparison, in constant time). */
  const mayScrape = (token: string | undefined) => {
    const { adminToken, tokens } = options();
    return tokenAccepted(token, adminToken === undefined ? tokens : [adminToken]);
  };
  /** Whether the request carries that token, in `X-Token` or as Prometheus sends it (`Authorization: Bearer`): each through `mayScrape`. */
  const scrapeAllowed = (headers: Headers) => mayScrape(headers.get("x-token") ?? undefined) || mayScrape(bearerToken(headers.get("authorization")));
  /**
   * The requests answered over HTTP whose line and metrics are still to be written: written in batches, off
   * the answers' path, `recordEveryMs` after the first of a batch (or at once past `recordBatchLimit`), so that
   * an answer never waits for its own bookkeeping and a busy sandbox does it a few times a second rather than
   * between every two answers; a scrape, a drain and `close` write them first. A request in process (`fetch`)
   * is recorded before its answer is returned, as a caller reading the log or the metrics right after it expects.
   */
  const answered: Answered[] = [];
  let recordTimer: NodeJS.Timeout | undefined;
  const recordAnswered = () => {
    clearTimeout(recordTimer);
    recordTimer = undefined;
    for (const entry of answered.splice(0)) record(entry);
  };
  const recordLater = (entry: Answered) => {
    const waiting = answered.push(entry);
    if (waiting >= recordBatchLimit) recordAnswered();
    else if (waiting === 1) recordTimer = setTimeout(recordAnswered, recordEveryMs).unref();
  };
  const record = ({ requestId, method, path, workspace, status, durationMs }: Answered) => {
    const operation = operationOf(method, path);
    metrics.request(operation, status, workspace, durationMs / 1000);
    // Chosen fields only: never a header (the token), the query or a body.
    logger.info({ requestId, method, path, operation, workspace, status, durationMs: Math.round(durationMs * 1000) / 1000 }, "request");
  };
  const scrape = async (request: Request, env: AppEnv["Bindings"]): Promise<Response> => {
    recordAnswered();
    const mediaType = options().errorMediaType;
    const refused = env.network ? guard(request.headers.get("host") ?? undefined, request.headers.get("origin") ?? undefined) : undefined;
    if (refused) return problemResponse(mediaType, 403, refused);
    if (!scrapeAllowed(request.headers))
      return problemResponse(
        mediaType,
        401,
        `Authorization failed: the metrics answer ${options().adminToken === undefined ? "an accepted token (--token)" : "the administrator token (--admin-token)"}. Check the X-Token header, or Authorization: Bearer <token>.`,
        undefined,
        { "www-authenticate": "Bearer" },
      );
    if (request.method !== "GET" && request.method !== "HEAD")
      return problemResponse(mediaType, 405, `${metricsPath} accepts GET, HEAD only; got ${request.method}.`, undefined, { allow: "GET, HEAD" });
    return new Response(request.method === "HEAD" ? null : await metrics.registry.metrics(), { headers: { "content-type": metrics.registry.contentType } });
  };
  const handle = async (request: Request, env: AppEnv["Bindings"] = {}): Promise<Response> => {
    const started = performance.now();
    const sent = request.headers.get("x-request-id");
    const requestId = sent !== null && requestIdPattern.test(sent) ? sent : randomUUID();
    const pathname = pathOf(request.url);
    const observation: Observation = {};
    drain.inFlight++;
    let response: Response | undefined;
    try {
      if (pathname === metricsPath) response = await scrape(request, env);
      else if (drain.draining && pathname === "/_sandbox/ready")
        response = problemResponse(options().errorMediaType, 503, "The sandbox is shutting down.", undefined, { "retry-after": "1" });
      else response = await sandbox.handle(request, { ...env, observation });
      // Through the transport when it can (the header added to the head it writes), else on the answer itself.
      if (env.setResponseHeader === undefined) return withRequestId(response, requestId);
      env.setResponseHeader("x-request-id", requestId);
      // While draining, a connection is closed once it has answered (a kept-alive one too): its client moves on.
      if (drain.draining) env.setResponseHeader("connection", "close");
      return response;
    } finally {
      const entry: Answered = {
        requestId,
        method: request.method,
        path: pathname,
        workspace: observation.workspace,
        status: response?.status ?? 500,
        durationMs: performance.now() - started,
      };
      if (env.setResponseHeader === undefined) record(entry);
      else recordLater(entry);
      if (--drain.inFlight === 0 && drain.idle.length > 0) for (const resolve of drain.idle.splice(0)) resolve();
    }
  };
  return {
    get options() {
      return sandbox.options;
    },
    handle,
    fetch: (input, init) => handle(input instanceof Request && init === undefined ? input : new Request(input, init)),
    requests: sandbox.requests,
    firedEvents: sandbox.firedEvents,
    reset: sandbox.reset,
    fault: sandbox.fault,
    close: async () => {
      recordAnswered();
      await sandbox.close();
    },
    drain: async (boundMs) => {
      drain.draining = true;
      logger.info({ requestsInFlight: drain.inFlight }, `draining: ${drain.inFlight} ${drain.inFlight === 1 ? "request" : "requests"} in flight`);
      if (drain.inFlight === 0) return recordAnswered();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => drain.idle.push(resolve)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, boundMs);
        }),
      ]);
      clearTimeout(timer);
      recordAnswered();
    },
  };
}

/** The answer with the request id in `X-Request-Id` (a copy when its headers cannot change). */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set("x-request-id", requestId);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("x-request-id", requestId);
    return copy;
  }
}
