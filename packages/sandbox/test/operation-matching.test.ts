/**
 * The sandbox matches requests to operations through `@bot-conversation/openapi`'s compiled descriptions (issue 49,
 * item 1), the service's and the control API's alike: the metrics' operation label, the app's `Allow` and CORS
 * methods. Every case is derived from the descriptions, so a new route or method edits no test here.
 */
import type { CompiledOperation } from "@bot-conversation/openapi";
import { afterAll, describe, expect, test } from "vitest";
import { compiledControl, compiledService } from "../src/description.ts";
import { createSandbox } from "../src/index.ts";
import { createSandboxHandlers } from "../src/msw.ts";
import { operationOf } from "../src/observe/observe.ts";

const operations: readonly CompiledOperation[] = [...compiledService.operations, ...compiledControl.operations];
const verbs = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
/** A path of the operation's template, each parameter an encoded value with a slash, a space and a letter beyond ASCII. */
const pathOf = (operation: CompiledOperation) => operation.template.fill(() => encodeURIComponent("a/b é"));
const described = (path: string) => operations.filter((operation) => operation.template.match(path)).map((operation) => operation.method.toUpperCase());

describe("the metrics' operation label", () => {
  test.each(operations.map((operation) => [operation.method.toUpperCase(), operation.template.template, operation] as const))(
    "%s %s is labelled by its operationId, its path parameters encoded or not",
    (method, _, operation) => {
      expect(operationOf(method, pathOf(operation))).toBe(operation.id);
      const plain = operation.template.fill(() => "plain-1");
      expect(operationOf(method, plain)).toBe(operation.id);
      if (method === "GET" && !described(pathOf(operation)).includes("HEAD")) expect(operationOf("HEAD", pathOf(operation))).toBe(operation.id);
      // A trailing slash is another path, which no route answers.
      expect(operationOf(method, `${pathOf(operation)}/`)).toBe("none");
    },
  );

  test("a method a path does not describe, an unknown path and the index", () => {
    for (const operation of operations) {
      const path = pathOf(operation);
      const allowed = described(path);
      for (const verb of verbs.filter((verb) => !allowed.includes(verb) && !(verb === "HEAD" && allowed.includes("GET"))))
        expect(operationOf(verb, path), `${verb} ${path}`).toBe("none");
    }
    expect(operationOf("GET", "/api/v3/anything")).toBe("none");
    expect(operationOf("GET", "/")).toBe("index");
    expect(operationOf("HEAD", "/")).toBe("index");
  });
});

describe("the app's routes and the descriptions", () => {
  const adminToken = "an-admin-token-of-the-test";
  const sandboxes = [createSandbox({ conversations: 5, adminToken })];
  afterAll(async () => {
    for (const sandbox of sandboxes) await (await sandbox).close();
  });

  test("every operation of both descriptions is a route of the app: none is answered `No route`, and its path's other methods are a 405 naming them", async () => {
    const sandbox = await sandboxes[0]!;
    for (const operation of operations) {
      const method = operation.method.toUpperCase();
      const path = pathOf(operation);
      const token = operation.security.some((alternative) => alternative.some((use) => ["AdminToken", "MetricsToken"].includes(use.scheme)))
        ? adminToken
        : "sandbox-token";
      const answer = await sandbox.fetch(`http://127.0.0.1${path}`, { method, headers: { "x-token": token } });
      const text = await answer.text();
      expect(`${answer.status} ${text}`, `${method} ${path}`).not.toContain("No route");
      const allowed = described(path);
      const withHead = allowed.includes("GET") ? [...new Set([...allowed, "HEAD"])] : allowed;
      const other = verbs.find((verb) => !withHead.includes(verb))!;
      const refused = await sandbox.fetch(`http://127.0.0.1${path}`, { method: other, headers: { "x-token": token } });
      expect(refused.status, `${other} ${path}`).toBe(405);
      expect(refused.headers.get("allow")?.split(", ").sort(), `${other} ${path}`).toEqual([...withHead].sort());
    }
  });

  test("a fixed segment sent percent-encoded is the same path: routed by Hono, labelled and allowed as written plain", async () => {
    const sandbox = await sandboxes[0]!;
    const encoded = "/api/v2/channels/%63onversations";
    expect(operationOf("GET", encoded)).toBe("searchConversations");
    expect((await sandbox.fetch(`http://127.0.0.1${encoded}`, { headers: { "x-token": "sandbox-token" } })).status).toBe(200);
    const refused = await sandbox.fetch(`http://127.0.0.1${encoded}`, { method: "DELETE", headers: { "x-token": "sandbox-token" } });
    expect([refused.status, refused.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  test("a browser's preflight is allowed the methods the descriptions give the path, a parameter encoded", async () => {
    const sandbox = await sandboxes[0]!;
    for (const operation of compiledService.operations) {
      const path = pathOf(operation);
      const preflight = await sandbox.fetch(`http://127.0.0.1${path}`, {
        method: "OPTIONS",
        headers: { origin: "http://app.test", "access-control-request-method": operation.method.toUpperCase() },
      });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get("access-control-allow-methods")?.split(",").sort(), path).toEqual(compiledService.methodsOf(path).sort());
    }
  });

  test("without the observer (the MSW handlers' sandbox), the metrics are no route, whatever the method", async () => {
    const sandbox = await createSandboxHandlers({ conversations: 5 }).sandbox;
    try {
      for (const method of ["GET", "POST"]) {
        const answer = await sandbox.fetch("http://127.0.0.1/_sandbox/metrics", { method, headers: { "x-token": "sandbox-token" } });
        expect([answer.status, ((await answer.json()) as { detail: string }).detail]).toEqual([404, `No route ${method} /_sandbox/metrics.`]);
      }
    } finally {
      await sandbox.close();
    }
  });
});
