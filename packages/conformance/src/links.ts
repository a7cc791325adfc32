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

/** Every link of the 200 response of `operationId`, by name (none when the description has none). */
export function linksOf(description: Description, operationId: string): Record<string, Link> {
  const path = description.operations.get(operationId)?.path;
  const method = description.operations.get(operationId)?.method.toLowerCase();
  if (!path || !method) return {};
  const operation = ((description.document["paths"] as Record<string, Record<string, unknown>>)[path]?.[method] ?? {}) as {
    responses?: Record<string, { links?: Record<string, Partial<Link>> }>;
  };
  return Object.fromEntries(
    Object.entries(operation.responses?.["200"]?.links ?? {}).flatMap(([name, link]) =>
      link.operationId
        ? [[name, { operationId: link.operationId, parameters: link.parameters ?? {}, requestBody: (link.requestBody as Record<string, string>) ?? {} }]]
        : [],
    ),
  );
}

/** The link `name` of the 200 response of `operationId`, or undefined when the description has none. */
export function linkOf(description: Description, operationId: string, name: string): Link | undefined {
  return linksOf(description, operationId)[name];
}

/** An answer a request can follow from: its operation, the request sent, and its JSON body (of a list, the element chosen first: the links name `/0/`). */
export interface LinkSource {
  readonly operationId: string;
  readonly request: Case;
  readonly body: unknown;
}

/**
 * The request body fields of `operationId` that the description's links carry from `sources`: every link of a
 * source's 200 leading to that operation, its `requestBody` expressions evaluated on that source (a later
 * source's field wins). A link the description adds, or a field it adds to one, is followed with no edit in
 * the phase that sends the request.
 */
export function linkedBody(description: Description, operationId: string, sources: readonly LinkSource[]): Record<string, unknown> {
  return Object.assign(
    {},
    ...sources.flatMap((source) =>
      Object.values(linksOf(description, source.operationId))
        .filter((link) => link.operationId === operationId)
        .map((link) => follow(link.requestBody, source.request, source.body)),
    ),
  );
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
