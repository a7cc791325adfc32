/**
 * The description's OpenAPI `links` as the kit follows them: a search page to the next page
 * (`nextPage`), a search to a fire by conversation (`fireByConversationId`), a trigger list to a fire
 * (`fireTrigger`). Each link names the operation it leads to and, as runtime expressions, where each
 * value comes from (`$request.query.status`, `$response.body#/pageSize`); the kit reads the values
 * from the request it sent and the body it received, so a link the description changes changes what
 * the kit carries from one step to the next.
 */
import { pointerKeys } from "@bot-conversation/openapi";
import type { Case } from "./case.ts";
import type { Description } from "./description.ts";

/** A link of a 200 response: the operation it leads to, and the runtime expression of each parameter and body field. */
export interface Link {
  readonly operationId: string;
  readonly parameters: Readonly<Record<string, string>>;
  readonly requestBody: Readonly<Record<string, string>>;
}

/** The link `name` of the 200 response of `operationId`, or undefined when the description has none. */
export function linkOf(description: Description, operationId: string, name: string): Link | undefined {
  const path = description.operations.get(operationId)?.path;
  const method = description.operations.get(operationId)?.method.toLowerCase();
  if (!path || !method) return undefined;
  const operation = ((description.document["paths"] as Record<string, Record<string, unknown>>)[path]?.[method] ?? {}) as {
    responses?: Record<string, { links?: Record<string, Partial<Link>> }>;
  };
  const link = operation.responses?.["200"]?.links?.[name];
  if (!link?.operationId) return undefined;
  return { operationId: link.operationId, parameters: link.parameters ?? {}, requestBody: (link.requestBody as Record<string, string>) ?? {} };
}

/** The value of one runtime expression (bare or in braces) for a request and the JSON body of its answer; undefined when it names nothing there. */
export function evaluate(expression: string, request: Case, body: unknown): unknown {
  const plain = expression.replace(/^\{(.*)\}$/, "$1");
  const query = /^\$request\.query\.(.+)$/.exec(plain);
  if (query) return request.query[query[1]!];
  const pointer = /^\$response\.body#(\/.*)?$/.exec(plain);
  if (!pointer) return undefined;
  // The one reader of JSON pointers (`pointerKeys` of @bot-conversation/openapi) decodes the segments.
  return pointerKeys(`#${pointer[1] ?? ""}`).reduce<unknown>(
    (at, key) => (typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined),
    body,
  );
}

/** The values a link carries, evaluated: those that name nothing are left out (a filter the request did not send). */
export function follow(expressions: Readonly<Record<string, string>>, request: Case, body: unknown): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(expressions).flatMap(([name, expression]) => {
      const value = evaluate(expression, request, body);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/**
 * The query of the page after `request`'s, by the description's `nextPage` link: every value it carries
 * (the filters sent, the page size the server reported), with `pageIndex` the returned one plus one
 * (the arithmetic no runtime expression can write). Without the link, the request's own query.
 */
export function nextPageQuery(description: Description, request: Case, body: unknown): Record<string, string> {
  const link = linkOf(description, "searchConversations", "nextPage");
  const carried = link ? follow(link.parameters, request, body) : request.query;
  const pageIndex = (body as { pageIndex?: unknown } | null)?.pageIndex;
  return { ...Object.fromEntries(Object.entries(carried).map(([name, value]) => [name, String(value)])), pageIndex: String(Number(pageIndex) + 1) };
}
