import { type Context, Hono } from "hono";
import { cors } from "hono/cors";
import type { Fault, OperationId } from "../data/faults.ts";
import { NotKeptError, StoreUnavailableError } from "../data/fired-events.ts";
import { Random } from "../data/random.ts";
import { WorkspaceGoneError } from "../data/store.ts";
import { compiledService, sandboxMethodsOf, sandboxOperationOf } from "../description.ts";
import { fireExternalEvent } from "../operations/fire.ts";
import { problemResponse, storeUnavailable, tokenRefused } from "../operations/problem.ts";
import { bodyRead, queryOf } from "../operations/request.ts";
import { searchConversations } from "../operations/search.ts";
import { listExternalEventTriggers } from "../operations/triggers.ts";
import type { Delay, Latency } from "../options.ts";
import type { SandboxContext } from "./context.ts";
import { controlRoutes } from "./control.ts";
import { controlGuard } from "./guard.ts";
import { indexPageOf } from "./index-page.ts";
import { bodyForJournal, journalBodyOf, refusedBodyNote } from "./journal.ts";
import { tokenAccepted } from "./token.ts";
import { workspaceRoutes } from "./workspaces.ts";

/** A route's handler, given the request's Hono context. */
type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

/**
 * What the server may hand the app with a request (Node's raw header list, for the journal; where the
 * observer of `observe/` is told the workspace that answered; how the transport adds a header to the answer
 * it will send, which costs less than changing a `Response`'s headers), and what the routes tell the journal:
 * the operation a request was routed to.
 */
export type AppEnv = {
  Bindings: {
    rawHeaders?: readonly string[];
    network?: boolean;
    observation?: { workspace?: string | undefined };
    setResponseHeader?: (name: string, value: string) => void;
  };
  Variables: { operationId: OperationId };
};

/** Control routes that answer without a token and over any Host (a load balancer's probes): they tell nothing of the data. */
const openRoutes = new Set(["/_sandbox/health", "/_sandbox/ready"]);

/** The operations of the descriptions that the observer answers around the app (`observe/`), which are no route of the app. */
const answeredAroundTheApp = new Set(["getSandboxMetrics"]);

/**
 * The methods the app answers on a path, HEAD wherever GET is (one table for CORS and 405s): those the service's
 * and the control API's descriptions give it, matched by `@bot-conversation/openapi`'s compiled descriptions.
 */
function methodsOf(pathname: string): string[] {
  return sandboxMethodsOf(pathname).filter((method) => !answeredAroundTheApp.has(sandboxOperationOf(method, pathname)?.operation.id ?? ""));
}

/** Whether a path is one of the administrator's routes (`/_sandbox/workspaces…`), which take the administrator token. */
const isAdministration = (path: string) => path === "/_sandbox/workspaces" || path.startsWith("/_sandbox/workspaces/");

/** Each operation of the service by its `operationId`: how the route table calls it (paths and methods come from the description). */
const operationHandlers: { readonly [operationId in OperationId]: (context: SandboxContext, c: Context<AppEnv>) => Response | Promise<Response> } = {
  searchConversations: (context, c) => searchConversations(context, queryOf(c.req.url)),
  listExternalEventTriggers: (context, c) => listExternalEventTriggers(context, c.req.param("agentStageId") ?? "", queryOf(c.req.url)),
  fireExternalEvent: (context, c) => fireExternalEvent(context, c.req.raw),
};

/**
 * The sandbox as one Web-standard application, the same in every mode: the service's three operations, one
 * workspace's control API (behind the `X-Token` check), the administrator's workspaces (behind
 * `--admin-token`), health and readiness. `app.fetch(request)` is the whole server.
 *
 * The one route table: a new control route goes in `control.ts` (a workspace's) or `workspaces.ts` (the
 * administrator's), or in a route module of its own added below with `app.route("/_sandbox", …)`.
 */
export function createApp(context: SandboxContext): Hono<AppEnv> {
  const { options } = context;
  const app = new Hono<AppEnv>();
  const latencyDraws = new Random(`${options.seed}\u0000latency`, 0);
  /** Whether the request carries an accepted token (compared, never logged or echoed). */
  const hasToken = (c: Context<AppEnv>) => tokenAccepted(c.req.header("x-token"), options.tokens);

  // Browser frontends call the sandbox from their own origin, as they call the mock; a preflight carries no token.
  // Like the mock (Prism), every header a preflight asks for is allowed (`allowHeaders` unset reflects them);
  // the methods are those the path answers, and the headers the client reads are exposed.
  // Only requests with an Origin (browsers') get the CORS headers: adding headers to a finished response copies it.
  const allowBrowsers = cors({
    origin: (origin) => origin,
    allowMethods: (_origin, c) => methodsOf(new URL(c.req.url).pathname),
    exposeHeaders: ["Retry-After", "X-Request-Id", "Allow", "Location"],
    maxAge: 600,
  });
  // Over HTTP, the control API answers only loopback Host names and origins, and those the user listed (see `guard.ts`).
  const guard = controlGuard(options);
  /** A preflight answered by CORS, with Private Network Access allowed when asked: for the service's operations from any origin, for the control API once the guard let it through. */
  const allowBrowsersPrivately = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    const answer = await allowBrowsers(c, next);
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-private-network") === "true" && answer instanceof Response) {
      answer.headers.set("access-control-allow-private-network", "true");
    }
    return answer;
  };
  const unauthorized = () => tokenRefused(options.errorMediaType);
  const notAdministrator = (c: Context<AppEnv>) => {
    const allowed = context.workspaces.isAdministrator(c.req.header("x-token") ?? "");
    if (allowed) return undefined;
    return problemResponse(
      options.errorMediaType,
      401,
      allowed === undefined
        ? "Workspaces are managed with the administrator token, and this sandbox has none (start it with --admin-token)."
        : "Authorization failed: workspaces are managed with the administrator token (--admin-token). Check the X-Token header.",
    );
  };
  /**
   * The rest of a request: CORS for a browser's (around the rest), the token check (compared, never logged
   * or echoed), then the route. Resolves to the answer when it is a refusal or a preflight's, or to nothing
   * when the route's response is in place (`c.res`).
   */
  const admit = async (c: Context<AppEnv>, next: () => Promise<void>, authorized: boolean, refused = unauthorized): Promise<Response | undefined> => {
    if (c.req.header("origin") !== undefined) {
      // Inside CORS the refusal is put in place rather than answered, so that CORS adds its headers to it.
      const answer = await allowBrowsersPrivately(c, authorized ? next : async () => void (c.res = refused()));
      return answer instanceof Response ? answer : undefined;
    }
    if (!authorized) return refused();
    await next();
    return undefined;
  };

  // One middleware before every route, not one for each of its jobs: each level of Hono's dispatch costs every
  // request (a fire) about half a microsecond. The control API's guard; then the request journal around the rest
  // (every request but the control API's own and browsers' preflights, recorded once answered).
  const indexPage = indexPageOf(options);
  app.use(async (c, next) => {
    const { path, method } = c.req;
    // The index, for a person who opens the address: no token, nothing journaled.
    if (path === "/" && (method === "GET" || method === "HEAD")) return indexPage(c.req.url, c.req.header("accept"), method);
    const control = path.startsWith("/_sandbox/");
    if (control && openRoutes.has(path)) return next();
    if (control && (c.env as AppEnv["Bindings"] | undefined)?.network) {
      const refused = guard(c.req.header("host"), c.req.header("origin"));
      if (refused) return problemResponse(options.errorMediaType, 403, refused);
    }
    if (control && isAdministration(path)) {
      const refused = c.req.method === "OPTIONS" ? undefined : notAdministrator(c);
      return admit(c, next, refused === undefined, () => refused!);
    }
    if (control || method === "OPTIONS") return admit(c, next, hasToken(c));
    const receivedAt = Date.now();
    const started = performance.now();
    const authorized = hasToken(c);
    const answer = await admit(c, next, authorized);
    const durationMs = performance.now() - started;
    // What the journal keeps is turned into records only when read, so a request pays for a few fields, not for
    // copies. The body the route read is kept as it read it (no copy of the stream); a GET has none (reading `body`
    // would make the server build a whole Request for nothing); the body of a request the token check refused is
    // never read, so a flood of them holds no memory.
    const read = bodyRead(c.req.raw);
    const body =
      read !== undefined
        ? journalBodyOf(read)
        : method === "GET" || method === "HEAD" || !hasContent(c.req.raw)
          ? null
          : authorized
            ? await bodyForJournal(c.req.raw)
            : { note: refusedBodyNote };
    context.requests.add(
      {
        receivedAt,
        method,
        url: c.req.url,
        path,
        headers: (c.env as AppEnv["Bindings"] | undefined)?.rawHeaders ?? c.req.raw.headers,
        body,
        status: (answer ?? c.res).status,
        durationMs,
      },
      c.get("operationId"),
    );
    return answer;
  });

  /** An armed fault applied to a request of the operation: a time-out, a delay, then its status or the operation's answer. */
  const faulted = async (c: Context<AppEnv>, operationId: OperationId, fault: Fault, handler: Handler): Promise<Response> => {
    if (fault.timeout) {
      // Never answered: the request waits until its client gives up (or the server stops).
      await new Promise((resolve) => c.req.raw.signal.addEventListener("abort", resolve, { once: true }));
      return new Response(null, { status: 504 });
    }
    if (fault.delayMs > 0) await sleep(fault.delayMs, c.req.raw.signal);
    if (fault.status >= 300) {
      const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { "retry-after": String(fault.retryAfter) };
      return problemResponse(options.errorMediaType, fault.status, `Fault injected by the sandbox for ${operationId}.`, undefined, headers);
    }
    return handler(c);
  };

  /** Applies the latency option and the first armed fault of the operation, if any, before the operation itself. */
  const withFaults =
    (operationId: OperationId, handler: Handler): Handler =>
    (c) => {
      c.set("operationId", operationId);
      // Every store answers with a promise (in memory, one already settled): absorbed here, once.
      const answer = () => context.faults.take(operationId).then((fault) => (fault ? faulted(c, operationId, fault, handler) : handler(c)));
      const latency = latencyOf(options.latency, operationId, latencyDraws);
      // Most requests wait for nothing: they are answered at once, without a promise of their own.
      return latency > 0 ? sleep(latency, c.req.raw.signal).then(answer) : answer();
    };

  // The route table. The service's operations: each path and method as the description gives it.
  for (const { id, method, template } of compiledService.operations) {
    const handle = operationHandlers[id as OperationId];
    app.on(
      method.toUpperCase(),
      template.fill((name) => `:${name}`),
      withFaults(id as OperationId, (c) => handle(context, c)),
    );
  }
  // The control API: a workspace's routes, health and readiness; the administrator's workspaces.
  app.route("/_sandbox", controlRoutes(context));
  app.route("/_sandbox", workspaceRoutes(context));

  // A known path asked with another method: 405 naming the path as sent, with `Allow`.
  app.all("*", (c) => {
    const { pathname } = new URL(c.req.url);
    const allowed = methodsOf(pathname);
    if (allowed.length === 0) return c.notFound();
    return problemResponse(options.errorMediaType, 405, `${pathname} accepts ${allowed.join(", ")} only; got ${c.req.method}.`, undefined, {
      allow: allowed.join(", "),
    });
  });

  app.notFound((c) => problemResponse(options.errorMediaType, 404, `No route ${c.req.method} ${new URL(c.req.url).pathname}.`));
  app.onError((error) => {
    // A request whose workspace was removed while it was under way changed nothing: answered as its token now is.
    if (error instanceof WorkspaceGoneError) return context.workspaces.noWorkspace();
    if (error instanceof StoreUnavailableError) return storeUnavailable(options.errorMediaType, error);
    // A change the --data file could not keep: nothing changed, and the answer says why (never a 500 after a commit).
    if (error instanceof NotKeptError) return problemResponse(options.errorMediaType, 503, `${error.message}.`);
    // Only the error itself is logged: never the request's headers, so never a token.
    console.error("sandbox: internal error:", error);
    return problemResponse(options.errorMediaType, 500, "Internal error of the sandbox.");
  });
  return app;
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
