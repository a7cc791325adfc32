import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readDescription, type Schema } from "../src/index.ts";

const document = JSON.parse(readFileSync(new URL("../dist/openapi.json", import.meta.url), "utf8")) as Schema;
const description = readDescription(document);

interface Link {
  readonly operationId: string;
  readonly parameters?: Record<string, string>;
  readonly requestBody?: Record<string, string>;
}

/** Every link of every response: the operation it leaves, the status, its name, the link. */
const links = description.operations.flatMap((operation) =>
  Object.entries((operation.node["responses"] ?? {}) as Record<string, { links?: Record<string, Link> }>).flatMap(([status, response]) =>
    Object.entries(response.links ?? {}).map(([name, link]) => ({ from: operation, status, name, link })),
  ),
);

/** The schema a JSON pointer into a body reaches from `schema`, following `$ref`, `properties` and `items`; undefined when it names nothing. */
function schemaAt(schema: Schema | undefined, pointer: string): Schema | undefined {
  let at = schema;
  for (const segment of pointer.split("/").slice(1)) {
    while (at && typeof at["$ref"] === "string") at = description.resolve(at["$ref"]) as Schema;
    if (!at) return undefined;
    at = /^\d+$/.test(segment) ? (at["items"] as Schema | undefined) : (at["properties"] as Record<string, Schema> | undefined)?.[segment];
  }
  return at;
}

/** Where an expression points, checked: `$request.query.X` is a parameter of the link's own operation; `$response.body#/...` a part of its 200 body. */
function problemOf(expression: string, from: (typeof links)[number]): string | undefined {
  const plain = expression.replace(/^\{(.*)\}$/, "$1");
  const query = /^\$request\.query\.(\w+)$/.exec(plain);
  if (query)
    return from.from.parameters.some((parameter) => parameter.name === query[1] && parameter.in === "query") ? undefined : `no query parameter ${query[1]}`;
  const body = /^\$response\.body#(\/.*)$/.exec(plain);
  if (body) {
    const content = (from.from.node["responses"] as Record<string, { content: Record<string, { schema: Schema }> }>)[from.status]!.content;
    return schemaAt(content["application/json"]!.schema, body[1]!) ? undefined : `the body has no ${body[1]}`;
  }
  return `not a runtime expression: ${expression}`;
}

describe("the description's links: a search page to the next page, a trigger list to a fire, a search to a fire by conversationId", () => {
  it("links the three steps a stateful tool chains", () => {
    expect(links.map(({ from, name, link }) => `${from.id} -> ${name} -> ${link.operationId}`)).toEqual([
      "searchConversations -> nextPage -> searchConversations",
      "searchConversations -> fireByConversationId -> fireExternalEvent",
      "listExternalEventTriggers -> fireTrigger -> fireExternalEvent",
    ]);
  });

  it.each(links)("$from.id $status $name: its operation, parameters and body fields exist, and each expression reaches what it names", (entry) => {
    const target = description.operations.find((operation) => operation.id === entry.link.operationId);
    expect(target).toBeDefined();
    for (const [name, expression] of Object.entries(entry.link.parameters ?? {})) {
      expect(target!.parameters.map((parameter) => parameter.name)).toContain(name);
      expect(problemOf(expression, entry), name).toBeUndefined();
    }
    const body = target!.node["requestBody"] as { content: Record<string, { schema: Schema }> } | undefined;
    for (const [name, expression] of Object.entries(entry.link.requestBody ?? {})) {
      const variants = (description.resolve((body!.content["application/json"]!.schema as { $ref: string }).$ref)["oneOf"] ?? []) as Schema[];
      expect(
        variants.some((variant) => schemaAt(variant, `/${name}`)),
        name,
      ).toBe(true);
      expect(problemOf(expression, entry), name).toBeUndefined();
    }
  });

  it("an expression naming a field the body lacks is caught", () => {
    const entry = links[1]!;
    expect(problemOf("{$response.body#/items/0/nope}", entry)).toBe("the body has no /items/0/nope");
    expect(problemOf("$request.query.nope", entry)).toBe("no query parameter nope");
  });
});
