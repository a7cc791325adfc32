/**
 * The sandbox matches requests to operations through `@bot-conversation/openapi`'s compiled descriptions (issue 49,
 * item 1), the service's and the control API's alike: the app's route table (each route labelled for the log and the
 * metrics by its operationId when the table is built), its `Allow` and CORS methods. Every case is derived from the
 * descriptions, so a new route or method edits no test here.
 */
import { Writable } from "node:stream";
import type { CompiledOperation } from "@bot-conversation/openapi";
import { afterAll, describe, expect, test } from "vitest";
import { compiledControl, compiledService } from "../src/description.ts";
import { createSandbox } from "../src/index.ts";
import { createSandboxHandlers } from "../src/msw.ts";
import { createLogger } from "../src/observe/log.ts";

const operations: readonly CompiledOperation[] = [...compiledService.operations, ...compiledControl.operations];
const verbs = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
/** A path of the operation's template, each parameter an encoded value with a slash, a space and a letter beyond ASCII. */
const pathOf = (operation: CompiledOperation) => operation.template.fill(() => encodeURIComponent("a/b é"));
const described = (path: string) => operations.filter((operation) => operation.template.match(path)).map((operation) => operation.method.toUpperCase());

/** The operation label of each request sent, as the log line of an observed sandbox gives it (the metrics' label is the same field). */
async function labelsOf(requests: readonly { method: string; path: string }[]): Promise<string[]> {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const sandbox = await createSandbox({ conversations: 5, logger: await createLogger(stream, "json") });
  try {
    // Without a token: every route labels its requests, answered or refused, and nothing changes.
    for (const { method, path } of requests) await (await sandbox.fetch(`http://127.0.0.1${path}`, { method })).arrayBuffer();
  } finally {
    await sandbox.close();
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { operation: string }).operation);
}

describe("the metrics' operation label: each route's, given when the route table is built", () => {
  test("every operation's method and path (its parameters encoded or not; a HEAD as its GET) is labelled by its operationId; a trailing slash is none", async () => {
    const cases = operations.flatMap((operation) => {
      const method = operation.method.toUpperCase();
      const path = pathOf(operation);
      const head = method === "GET" && !described(path).includes("HEAD") ? [{ method: "HEAD", path, label: operation.id }] : [];
      return [
        { method, path, label: operation.id },
        { method, path: operation.template.fill(() => "plain-1"), label: operation.id },
        ...head,
        // A trailing slash is another path, which no route answers.
        { method, path: `${path}/`, label: "none" },
      ];
    });
    expect(await labelsOf(cases)).toEqual(cases.map(({ label }) => label));
  });

  test("a method a path does not describe, an unknown path and the index", async () => {
    const cases = [
      ...operations.flatMap((operation) => {
        const path = pathOf(operation);
        const allowed = described(path);
        return verbs
          .filter((verb) => !allowed.includes(verb) && !(verb === "HEAD" && allowed.includes("GET")))
          .map((method) => ({ method, path, label: "none" }));
      }),
      { method: "GET", path: "/api/v3/anything", label: "none" },
      { method: "GET", path: "/", label: "index" },
      { method: "HEAD", path: "/", label: "index" },
    ];
    expect(await labelsOf(cases)).toEqual(cases.map(({ label }) => label));
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

  test("a fixed segment sent percent-encoded is the same path: routed, labelled and allowed as written plain", async () => {
    const sandbox = await sandboxes[0]!;
    const encoded = "/api/v2/channels/%63onversations";
    expect(await labelsOf([{ method: "GET", path: encoded }])).toEqual(["searchConversations"]);
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
