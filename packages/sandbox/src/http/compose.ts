/**
 * The request pipeline's one way to chain its parts: small middleware around a route's handler, composed once per
 * route when the route table is built (Hono's `compose`, done ahead of the request). A middleware has Hono's shape,
 * `(c, next)`, working on the request's context (`c.get`, `c.set`, `http/context.ts`), except that `next` takes
 * the context and returns the answer: so the chain of each route is built once, and a request runs it with no
 * closure, no `c.res` bookkeeping and no array walk of its own (each level of Hono's per-request `compose` cost a
 * request about half a microsecond).
 */
import type { Handler, Middleware } from "./context.ts";

/** The handler with the middleware around it, the first outermost: one function for the route table. */
export function compose(middleware: readonly Middleware[], handler: Handler): Handler {
  return middleware.reduceRight<Handler>((next, part) => (c) => part(c, next), handler);
}
