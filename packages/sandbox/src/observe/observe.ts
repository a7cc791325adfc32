/**
 * What a sandbox made by `createSandbox` does around every request, in every mode (in memory, `--data`,
 * PostgreSQL): a request id (the client's `X-Request-Id`, or one made here, answered in that header), one
 * log line and the metrics once it is answered, `GET /_sandbox/metrics` (a route of the one route table, its
 * security the control description's), and a graceful drain (readiness `503` while the requests in flight
 * finish, each connection closed once it answered). Its parts are middleware of the app's pipeline
 * (`RequestObserver`, made once per route with the route's operation label), so the MSW handlers, which have
 * no observer, run the same app without them; it hears the sandbox's events (`SandboxEvents`): workspaces
 * created, removed and evicted, the store lost and back, changes heard from other replicas.
 */
import { randomUUID } from "node:crypto";
import type { OpenSandbox, Sandbox, SandboxEvents } from "../core.ts";
import { defaultWorkspace } from "../data/store.ts";
import type { Middleware, RequestContext, RequestObserver } from "../http/context.ts";
import type { ServedSandbox } from "../http/server.ts";
import { Answer } from "../operations/answer.ts";
import { droppedLogLines, type RequestLine, requestLineWriter, type SandboxLogger, silentLogger } from "./log.ts";
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
  /** Its middleware around every route of the app, the metrics' handler, and the drain. */
  readonly requests: ObservedRequests;
}

/** The observer's part of the request pipeline, and what a stop needs of it. */
export interface ObservedRequests extends RequestObserver {
  /** Readiness false from now on (and each connection closed once it answered); resolves once no request is in flight, or after `boundMs`. */
  drain(boundMs: number): Promise<void>;
  /** Writes the log lines and metrics of the requests answered so far. */
  flush(): void;
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
    requests: observedRequests(logger, metrics),
    useDatabase: (redactedUrl, probe) => {
      database = redactedUrl;
      metrics.useDatabase(probe);
      logger.info({ database }, "database connected");
    },
    events: {
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

/** A sandbox observed: the sandbox's methods, its handler, and a drain for a graceful stop. */
export type ObservedSandbox = Sandbox & ServedSandbox & Pick<OpenSandbox, "handle"> & { drain(boundMs: number): Promise<void> };

/**
 * How long a request answered over HTTP waits, at most, for its log line and its metrics (our choice), and how
 * many answered requests wait at most: see `observedRequests`.
 */
export const recordEveryMs = 20;
export const recordBatchLimit = 4096;

/** A request answered, as its log line and the metrics record it. */
type Answered = RequestLine;

/** The last 3 hex digits of a request id's count, each written once (see `newRequestId`). */
const lowIdDigits: readonly string[] = Array.from({ length: 4096 }, (_, low) => low.toString(16).padStart(3, "0"));

/**
 * A new request id: a UUID in form, its first 20 hex digits random per process and its last 12 a count of the
 * requests that needed one, so ids never repeat in a process and differ between processes; one random UUID per
 * process rather than per request (about a microsecond of each answer; our choice). The count's last 3 digits come
 * from a table and the rest is written once per 4,096 ids: an id is one string joined to another, not a number
 * written in hex and padded each time.
 */
const newRequestId = (() => {
  const prefix = randomUUID().slice(0, 24);
  let count = 0;
  let high = "";
  return () => {
    const low = count % lowIdDigits.length;
    if (low === 0) high = `${prefix}${(count / lowIdDigits.length).toString(16).padStart(9, "0")}`;
    count++;
    return high + lowIdDigits[low]!;
  };
})();

/** The longest `X-Request-Id` kept as the client sent it (and what it may hold); another is replaced by a new id. */
const requestIdPattern = /^[\w.:@/+=-]{1,128}$/;

/**
 * The workspace label of a request: the workspace its token picked; a request with no credential at all (neither
 * `X-Token` nor `Authorization`) is the default workspace's, where the sandbox answers it; `undefined` (`none`) for a
 * token of no workspace, the administrator's or the metrics'.
 */
function workspaceOf(c: RequestContext): string | undefined {
  const workspace = c.get("workspace");
  if (workspace !== undefined) return workspace.name;
  return c.req.header("x-token") || c.req.header("authorization") ? undefined : defaultWorkspace;
}

/**
 * The observer's middleware and the metrics' handler. The requests answered over HTTP whose line and metrics are
 * still to be written are written in batches, off the answers' path, `recordEveryMs` after the first of a batch (or
 * at once past `recordBatchLimit`), so that an answer never waits for its own bookkeeping and a busy sandbox does it
 * a few times a second rather than between every two answers; a scrape, a drain and `close` write them first. A
 * request in process (`fetch`) is recorded before its answer is returned, as a caller reading the log or the
 * metrics right after it expects.
 */
function observedRequests(logger: SandboxLogger, metrics: SandboxMetrics): ObservedRequests {
  const drain = { draining: false, inFlight: 0, idle: [] as (() => void)[] };
  const answered: Answered[] = [];
  let recordTimer: NodeJS.Timeout | undefined;
  const writeLine = requestLineWriter(logger);
  const record = (answered: Answered) => {
    metrics.request(answered.operation, answered.status, answered.workspace, answered.durationMs / 1000);
    // Chosen fields only: never a header (the token), the query or a body.
    writeLine(answered);
  };
  const flush = () => {
    clearTimeout(recordTimer);
    recordTimer = undefined;
    for (const entry of answered.splice(0)) record(entry);
  };
  const recordLater = (entry: Answered) => {
    const waiting = answered.push(entry);
    if (waiting >= recordBatchLimit) flush();
    else if (waiting === 1) recordTimer = setTimeout(flush, recordEveryMs).unref();
  };

  /** A request to a route labelled `operation` answered: its entry for the log and the metrics, and one request fewer in flight. */
  const answeredWith = (c: RequestContext, operation: string, status: number) => {
    // While draining, a connection is closed once it has answered (a kept-alive one too): its client moves on.
    if (drain.draining && c.network) c.header("connection", "close");
    const entry: Answered = {
      requestId: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      operation,
      workspace: workspaceOf(c),
      status,
      durationMs: c.answeredAfterMs(),
    };
    // A request over the network is recorded off its answer's path; one in process before its answer is returned.
    if (c.network) recordLater(entry);
    else record(entry);
    if (--drain.inFlight === 0 && drain.idle.length > 0) for (const resolve of drain.idle.splice(0)) resolve();
  };

  /**
   * The request id (the client's `X-Request-Id` when it is a plain token, else a new one; answered in that header: the
   * transport adds it to whatever answer it writes), the log line and the metrics of a request to a route labelled
   * `operation`, and the count of requests in flight (the drain's): one middleware, one step of the route.
   */
  const observed =
    (operation: string): Middleware =>
    (c, next) => {
      const sent = c.req.header("x-request-id");
      const id = sent !== undefined && requestIdPattern.test(sent) ? sent : newRequestId();
      c.set("requestId", id);
      c.header("x-request-id", id);
      drain.inFlight++;
      let answer: Answer | Promise<Answer>;
      try {
        answer = next(c);
      } catch (error) {
        answeredWith(c, operation, 500);
        throw error;
      }
      if (!(answer instanceof Promise)) {
        answeredWith(c, operation, answer.status);
        return answer;
      }
      return answer.then(
        (response) => {
          answeredWith(c, operation, response.status);
          return response;
        },
        (error: unknown) => {
          answeredWith(c, operation, 500);
          throw error;
        },
      );
    };

  const scrape = async (): Promise<Answer> => {
    flush();
    return new Answer(200, await metrics.registry.metrics(), ["content-type", metrics.registry.contentType]);
  };

  return {
    middlewareOf: (operation) => [observed(operation)],
    handlers: { getSandboxMetrics: scrape },
    draining: () => drain.draining,
    flush,
    drain: async (boundMs) => {
      drain.draining = true;
      logger.info({ requestsInFlight: drain.inFlight }, `draining: ${drain.inFlight} ${drain.inFlight === 1 ? "request" : "requests"} in flight`);
      if (drain.inFlight === 0) return flush();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => drain.idle.push(resolve)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, boundMs);
        }),
      ]);
      clearTimeout(timer);
      // The last answer is counted out before the pipeline hands it to the transport: one turn of the event loop
      // lets the transport write it before the stop closes the connections.
      await new Promise((resolve) => setImmediate(resolve));
      flush();
    },
  };
}

/** Observes a sandbox opened with this observer's requests (`SandboxStart.observer`): its workspaces counted, its log and metrics written before it closes. */
export function observeSandbox(sandbox: OpenSandbox, observer: Observer): ObservedSandbox {
  observer.metrics.countLoadedWith(() => sandbox.loadedWorkspaces);
  return {
    get options() {
      return sandbox.options;
    },
    pipeline: sandbox.pipeline,
    handle: sandbox.handle,
    fetch: sandbox.fetch,
    requests: sandbox.requests,
    firedEvents: sandbox.firedEvents,
    reset: sandbox.reset,
    fault: sandbox.fault,
    close: async () => {
      observer.requests.flush();
      await sandbox.close();
    },
    drain: observer.requests.drain,
  };
}
