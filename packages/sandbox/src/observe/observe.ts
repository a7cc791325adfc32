/**
 * What a sandbox made by `createSandbox` does around every request, in every mode (in memory, `--data`,
 * PostgreSQL): a request id (the client's `X-Request-Id`, or one made here, answered in that header), one
 * log line and the metrics once it is answered, `GET /_sandbox/metrics` for the administrator, and a
 * graceful drain (readiness `503` while the requests in flight finish). It wraps the sandbox's handler,
 * so the rules engine and the MSW handlers know nothing of it.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { registerHandler, type Sandbox, serverFetch } from "../core.ts";
import { controlDescription, serviceDescription } from "../description.ts";
import type { AppEnv } from "../http/app.ts";
import { controlGuard } from "../http/guard.ts";
import { problemResponse } from "../http/problem.ts";
import type { SandboxOptions } from "../options.ts";
import { type SandboxLogger, silentLogger } from "./log.ts";
import { SandboxMetrics } from "./metrics.ts";

/** What observes a sandbox: where it logs (quiet unless given a logger) and its own metrics. */
export interface Observer {
  /** The log. */
  readonly logger: SandboxLogger;
  /** The sandbox's metrics, in its own registry. */
  readonly metrics: SandboxMetrics;
}

/** A new observer: the logger given (or a silent one) and a registry of its own. */
export function newObserver(logger: SandboxLogger | undefined): Observer {
  return { logger: logger ?? silentLogger, metrics: new SandboxMetrics() };
}

/** What the inner layers tell the observer of a request: the workspace that answered it (a shared sandbox's). */
type Observation = NonNullable<AppEnv["Bindings"]["observation"]>;

/** The route of the metrics. */
export const metricsPath = "/_sandbox/metrics";

/** The longest `X-Request-Id` kept as the client sent it (and what it may hold); another is replaced by a new id. */
const requestIdPattern = /^[\w.:@/+=-]{1,128}$/;

/** The operationId of every route of the service's and the control API's descriptions, by method and path (bounded: never an id). */
const operations = [serviceDescription, controlDescription].flatMap((document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => typeof operation === "object" && operation !== null && "operationId" in operation)
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        exact: path.includes("{") ? undefined : path,
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
        operationId: operation.operationId!,
      })),
  ),
);

/** The operationId a request was sent to (a HEAD as its GET), `index` for `/`, or `none` for a path and method the descriptions do not have. */
export function operationOf(method: string, pathname: string): string {
  const asked = method === "HEAD" ? "GET" : method;
  if (pathname === "/" && asked === "GET") return "index";
  for (const entry of operations) if (entry.method === asked && entry.exact === pathname) return entry.operationId;
  for (const entry of operations) if (entry.method === asked && entry.exact === undefined && entry.pattern.test(pathname)) return entry.operationId;
  return "none";
}

/** The SHA-256 of a secret: secrets are compared by their hashes, in constant time. */
const digest = (secret: string) => createHash("sha256").update(secret).digest();

/** In-flight requests and drains of each observed sandbox (see `drainSandbox`). */
const drains = new WeakMap<Sandbox, { draining: boolean; inFlight: number; idle: (() => void)[] }>();

/**
 * Observes a sandbox in place: its `fetch` and the handler its server calls go through the observer.
 * `GET /_sandbox/metrics` answers the administrator token when the sandbox has one, else any accepted
 * `--token` (our choice; the metrics hold no data, only counts), with the control API's Host and Origin
 * guard over HTTP.
 */
export function observeSandbox(sandbox: Sandbox, observer: Observer): Sandbox {
  const { logger, metrics } = observer;
  const inner = serverFetch(sandbox);
  const drain = { draining: false, inFlight: 0, idle: [] as (() => void)[] };
  drains.set(sandbox, drain);
  const options = (): SandboxOptions => sandbox.options;
  const guard = controlGuard(sandbox.options);
  /** Whether the request carries the token the metrics answer (compared by hashes, in constant time). */
  const mayScrape = (token: string | null) => {
    const { adminToken, tokens } = options();
    const given = digest(token ?? "");
    return (adminToken === undefined ? tokens : [adminToken]).some((expected) => timingSafeEqual(given, digest(expected)));
  };
  const scrape = async (request: Request, env: AppEnv["Bindings"]): Promise<Response> => {
    const mediaType = options().errorMediaType;
    const refused = env?.network ? guard(request.headers.get("host") ?? undefined, request.headers.get("origin") ?? undefined) : undefined;
    if (refused) return problemResponse(mediaType, 403, refused);
    if (!mayScrape(request.headers.get("x-token")))
      return problemResponse(
        mediaType,
        401,
        `Authorization failed: the metrics answer ${options().adminToken === undefined ? "an accepted token (--token)" : "the administrator token (--admin-token)"}. Check the X-Token header.`,
      );
    if (request.method !== "GET" && request.method !== "HEAD")
      return problemResponse(mediaType, 405, `${metricsPath} accepts GET, HEAD only; got ${request.method}.`, undefined, { allow: "GET, HEAD" });
    return new Response(request.method === "HEAD" ? null : await metrics.registry.metrics(), { headers: { "content-type": metrics.registry.contentType } });
  };
  const handle = async (request: Request, env: AppEnv["Bindings"]): Promise<Response> => {
    const started = performance.now();
    const sent = request.headers.get("x-request-id");
    const requestId = sent !== null && requestIdPattern.test(sent) ? sent : randomUUID();
    const { pathname } = new URL(request.url);
    const observation: Observation = {};
    drain.inFlight++;
    let response: Response | undefined;
    try {
      if (pathname === metricsPath) response = await scrape(request, env);
      else if (drain.draining && pathname === "/_sandbox/ready")
        response = problemResponse(options().errorMediaType, 503, "The sandbox is shutting down.", undefined, { "retry-after": "1" });
      else response = await inner(request, { ...env, observation });
      return withRequestId(response, requestId);
    } finally {
      if (--drain.inFlight === 0) for (const resolve of drain.idle.splice(0)) resolve();
      const status = response?.status ?? 500;
      const operation = operationOf(request.method, pathname);
      const durationMs = performance.now() - started;
      // One workspace without a database; a shared sandbox names the one that answered (none for the administrator's routes).
      const workspace = observation.workspace ?? (options().databaseUrl === undefined ? "default" : undefined);
      metrics.request(operation, status, workspace, durationMs / 1000);
      // Chosen fields only: never a header (the token), the query or a body.
      logger.info(
        { requestId, method: request.method, path: pathname, operation, workspace, status, durationMs: Math.round(durationMs * 1000) / 1000 },
        "request",
      );
    }
  };
  registerHandler(sandbox, handle);
  sandbox.fetch = async (input, init) => handle(input instanceof Request && init === undefined ? input : new Request(input, init), {});
  return sandbox;
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

/**
 * Starts draining an observed sandbox: `/_sandbox/ready` answers `503` from now on, and the promise
 * resolves once no request is in flight, or after `boundMs` whatever is left.
 */
export async function drainSandbox(sandbox: Sandbox, boundMs: number): Promise<void> {
  const drain = drains.get(sandbox);
  if (!drain) return;
  drain.draining = true;
  if (drain.inFlight === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => drain.idle.push(resolve)),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
    }),
  ]);
  clearTimeout(timer);
}
