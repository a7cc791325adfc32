import type { CompiledOperation } from "@bot-conversation/openapi";
import type { OperationId } from "../data/faults.ts";
import { NotKeptError, StoreUnavailableError } from "../data/fired-events.ts";
import { WorkspaceGoneError } from "../data/store.ts";
import { compiledControl, compiledService, isControlPath, sandboxMethodsOf, sandboxOperationOf } from "../description.ts";
import type { Answer } from "../operations/answer.ts";
import { fireExternalEvent } from "../operations/fire.ts";
import { problemAnswer, storeUnavailable, tokenRefused } from "../operations/problem.ts";
import { queryOf } from "../operations/request.ts";
import { searchConversations } from "../operations/search.ts";
import { listExternalEventTriggers } from "../operations/triggers.ts";
import type { SandboxOptions } from "../options.ts";
import { compose } from "./compose.ts";
import type { Handler, Middleware, OperationHandler, RequestObserver, SandboxHost } from "./context.ts";
import { encodedPathOfTarget, type RequestContext } from "./context.ts";
import { controlHandlers } from "./control.ts";
import { indexPageOf } from "./index-page.ts";
import { browsers, faultsOf, guarded, journaled, replayed } from "./middleware.ts";
import { securityMiddleware } from "./security.ts";
import { workspaceHandlers } from "./workspaces.ts";

/** Each operation of the service by its `operationId` (paths, methods and security come from the description). */
const serviceHandlers: { readonly [operationId in OperationId]: OperationHandler } = {
  searchConversations: (context, c) => searchConversations(context, c.req.target),
  listExternalEventTriggers: (context, c) => listExternalEventTriggers(context, c.req.param("agentStageId") ?? "", queryOf(c.req.target)),
  fireExternalEvent: (context, c) => fireExternalEvent(context, c.req.body),
};

/** The handlers of the control API's operations, by `operationId`: a workspace's (`control.ts`) and the administrator's (`workspaces.ts`). */
const controlApiHandlers: Readonly<Record<string, OperationHandler>> = { ...controlHandlers, ...workspaceHandlers };

/**
 * The sandbox as one application, the same in every mode and over every transport: one route table, in which every
 * route is registered from the compiled descriptions (the service's three operations, the control API's routes: a
 * workspace's, the administrator's workspaces, health, readiness and, observed, the metrics) and `/`. Each route is
 * one handler composed once, when the table is built, of small middleware chosen by what its operation says (see
 * `routeOf`); a request finds its route through the compiled descriptions' matchers (`sandboxOperationOf`). It runs
 * on a request and an answer of our own (`http/context.ts`, `answer.ts`), which two thin adapters make from and
 * write to a transport: Node's HTTP server (`node-adapter.ts`, served by `server.ts`) and the Fetch API (`fetch-adapter.ts`: `createSandbox`'s
 * `fetch`, the MSW handlers). The workspace a request's token picks is a context variable (`c.get("workspace")`).
 * The function returned is the whole server.
 *
 * A new control route is its operation in `openapi/sandbox-control.yaml` and its handler, by that `operationId`, in
 * `controlHandlers` (`control.ts`, a workspace's) or `workspaceHandlers` (`workspaces.ts`, the administrator's):
 * its path, methods, `Allow`, CORS, guard and security follow from the description.
 */
export function createApp(host: SandboxHost, observer?: RequestObserver): Handler {
  const handlerOf = (operation: CompiledOperation): OperationHandler | undefined => {
    if (compiledService.operations.includes(operation)) return serviceHandlers[operation.id as OperationId];
    const observed = observer?.handlers[operation.id];
    return controlApiHandlers[operation.id] ?? (observed && ((_context, c) => observed(c)));
  };
  const served = new Map<CompiledOperation, OperationHandler>();
  for (const operation of [...compiledService.operations, ...compiledControl.operations]) {
    const handler = handlerOf(operation);
    if (handler) served.set(operation, handler);
    // An observed sandbox serves every operation of its descriptions: a described route without a handler is a mistake, named at start.
    else if (observer)
      throw new Error(
        `The sandbox has no handler for ${operation.id} (${operation.method.toUpperCase()} ${operation.path}): add it to controlHandlers (http/control.ts) or workspaceHandlers (http/workspaces.ts)`,
      );
  }
  const servedIds = new Set([...served.keys()].map((operation) => operation.id));
  /** The methods the app answers on a path (one table for CORS and 405s): those of the operations it serves there, HEAD wherever GET is. */
  const methodsOf = (pathname: string) =>
    sandboxMethodsOf(pathname).filter((method) => servedIds.has(sandboxOperationOf(method, pathname)?.operation.id ?? ""));
  const methodsOfRequest = (c: RequestContext) => methodsOf(encodedPathOfTarget(c.req.target));
  const observed = (label: string): readonly Middleware[] => [...(observer?.middlewareOf(label) ?? []), answeredOnError(host)];
  const present = (parts: readonly (Middleware | undefined)[]) => parts.filter((part): part is Middleware => part !== undefined);

  /**
   * The middleware of a route of an operation, in order: the observer's (request id, log line, metrics), errors
   * answered, then for a route that takes a credential the control API's Host and Origin guard (its routes) and
   * CORS, the request journal (the service's paths), the security its `security` reads, and for a service
   * operation a recording replayed, the latency option and armed faults.
   */
  const routeOf = (operation: CompiledOperation | undefined, label: string, control: boolean, security: Middleware | undefined): Middleware[] => {
    const service = operation === undefined ? !control : compiledService.operations.includes(operation);
    return present([
      ...observed(label),
      control && security ? guarded(host) : undefined,
      security ? browsers(methodsOfRequest) : undefined,
      service ? journaled(host, operation?.id as OperationId | undefined) : undefined,
      security,
      service ? replayed(host) : undefined,
      service && operation ? faultsOf(operation.id as OperationId) : undefined,
    ]);
  };
  const securityOf = (operation: CompiledOperation) =>
    securityMiddleware(operation.security, host, `${operation.id} (${operation.method.toUpperCase()} ${operation.path})`);

  // The index, for a person who opens the address: no token, nothing journaled.
  let index: { options: SandboxOptions; page: ReturnType<typeof indexPageOf> } | undefined;
  const indexRoute = compose(observed("index"), (c) => {
    const { options } = host.main().context;
    if (index?.options !== options) index = { options, page: indexPageOf(options) };
    return index.page(c.req.url, c.req.header("accept"));
  });

  // The route table: every operation served, at its path and method as its description gives them.
  const routes = new Map<CompiledOperation, Handler>();
  for (const [operation, handler] of served) {
    const control = compiledControl.operations.includes(operation);
    routes.set(
      operation,
      compose(routeOf(operation, operation.id, control, securityOf(operation)), (c) => handler((c.get("workspace") ?? host.main()).context, c)),
    );
  }

  // A request no route answers: for a path the app serves, a 405 naming the path as sent with `Allow`, to a caller its
  // operations' security lets through (a preflight answered by CORS first); for another path, a 404 to such a caller.
  const notServed: Handler = (c) => {
    const pathname = encodedPathOfTarget(c.req.target);
    const allowed = methodsOf(pathname);
    const { errorMediaType } = host.main().context.options;
    if (allowed.length === 0) return problemAnswer(errorMediaType, 404, `No route ${c.req.method} ${pathname}.`);
    return problemAnswer(errorMediaType, 405, `${pathname} accepts ${allowed.join(", ")} only; got ${c.req.method}.`, undefined, {
      allow: allowed.join(", "),
    });
  };
  /** The security of a path no operation describes: its description's own (`security` at its root). */
  const documentSecurity = (control: boolean) =>
    securityMiddleware((control ? compiledControl : compiledService).security, host, `${control ? "the control API" : "the service"}'s paths`);
  const unknownPath = {
    service: compose(routeOf(undefined, "none", false, documentSecurity(false)), notServed),
    control: compose(routeOf(undefined, "none", true, documentSecurity(true)), notServed),
  };
  /** Per path template served, the pipeline of its other methods: the security of its first operation. */
  const otherMethods = new Map<string, Handler>();
  for (const operation of served.keys()) {
    if (otherMethods.has(operation.path)) continue;
    const control = compiledControl.operations.includes(operation);
    otherMethods.set(operation.path, compose(routeOf(undefined, "none", control, securityOf(operation)), notServed));
  }
  /** The pipeline of a request no route answers (see `notServed`). */
  const notFound = (pathname: string): Handler => {
    const operation = [...served.keys()].find((candidate) => candidate.template.match(pathname) !== undefined);
    return operation ? otherMethods.get(operation.path)! : isControlPath(pathname) ? unknownPath.control : unknownPath.service;
  };
  const answer = (error: unknown) => answerOf(error, host);
  const plainRoutes = plainRoutesOf(routes);
  /**
   * The route of a request: a path without parameters, written plain, by its method and path in the table of such
   * routes (most requests); any other by the compiled descriptions' matchers (a HEAD is its GET's), with its path
   * parameters.
   */
  const routeOfRequest = (c: RequestContext): Handler => {
    const pathname = encodedPathOfTarget(c.req.target);
    const { method } = c.req;
    const plain = plainRoutes.get(method)?.get(pathname);
    if (plain !== undefined) return plain;
    if (pathname === "/" && (method === "GET" || method === "HEAD")) return indexRoute;
    const match = sandboxOperationOf(method, pathname);
    const route = match && routes.get(match.operation);
    if (route === undefined) return notFound(pathname);
    c.req.pathParameters = match!.pathParameters;
    return route;
  };
  return (c) => {
    try {
      const answered = routeOfRequest(c)(c);
      return answered instanceof Promise ? answered.catch(answer) : answered;
    } catch (error) {
      return answer(error);
    }
  };
}

/**
 * The routes of operations whose path has no parameter, by method (as a request spells it: upper case) and path: what
 * the compiled descriptions' matchers find for a request that names such a path plainly (`operationOf`: a path
 * without parameters is matched before a template, and a HEAD is its GET's where no operation takes HEAD), in two
 * lookups rather than a key made for each request. A request it does not hold goes to the matchers.
 */
function plainRoutesOf(routes: ReadonlyMap<CompiledOperation, Handler>): Map<string, Map<string, Handler>> {
  const table = new Map<string, Map<string, Handler>>();
  const add = (method: string, path: string, route: Handler) => {
    let byPath = table.get(method);
    if (byPath === undefined) table.set(method, (byPath = new Map()));
    if (!byPath.has(path)) byPath.set(path, route);
  };
  const plain = [...routes].filter(([operation]) => operation.template.parameterNames.length === 0);
  for (const [operation, route] of plain) add(operation.method.toUpperCase(), operation.path, route);
  // Then HEAD for GET, where no operation of the path took HEAD itself.
  for (const [operation, route] of plain) if (operation.method === "get") add("HEAD", operation.path, route);
  return table;
}

/** Errors thrown by a route answered inside the pipeline, so its log line and metrics count the answer. */
function answeredOnError(host: SandboxHost): Middleware {
  const answer = (error: unknown) => answerOf(error, host);
  return (c, next) => {
    try {
      const answered = next(c);
      return answered instanceof Promise ? answered.catch(answer) : answered;
    } catch (error) {
      return answer(error);
    }
  };
}

/** The answer to an error a route threw. */
function answerOf(error: unknown, host: SandboxHost): Answer {
  const { errorMediaType } = host.main().context.options;
  // A request whose workspace was removed while it was under way changed nothing: answered as its token now is.
  if (error instanceof WorkspaceGoneError) return tokenRefused(errorMediaType);
  if (error instanceof StoreUnavailableError) return storeUnavailable(errorMediaType, error);
  // A change the --data file could not keep: nothing changed, and the answer says why (never a 500 after a commit).
  if (error instanceof NotKeptError) return problemAnswer(errorMediaType, 503, `${error.message}.`);
  // Only the error itself is logged: never the request's headers, so never a token.
  console.error("sandbox: internal error:", error);
  return problemAnswer(errorMediaType, 500, "Internal error of the sandbox.");
}
