/**
 * Who may call a route is read from its operation's `security` (`src/http/security.ts`): every operation of both
 * descriptions is one the security middleware can check, an anonymous requirement needs no middleware, and a scheme
 * the sandbox does not check stops the app from being built with an error naming it and the operation.
 */
import { compileDescription } from "@bot-conversation/openapi";
import { describe, expect, test } from "vitest";
import { compiledControl, compiledService } from "../src/description.ts";
import type { SandboxHost } from "../src/http/context.ts";
import { credentialOfScheme, securityMiddleware } from "../src/http/security.ts";

/** A host no request reaches: building a middleware reads nothing of it. */
const host = {} as SandboxHost;

describe("the security middleware of each operation", () => {
  test.each([...compiledService.operations, ...compiledControl.operations].map((operation) => [operation.id, operation] as const))(
    "%s: its schemes are ones the sandbox checks; an anonymous requirement needs no middleware",
    (_, operation) => {
      for (const alternative of operation.security) for (const use of alternative) expect(Object.keys(credentialOfScheme)).toContain(use.scheme);
      const middleware = securityMiddleware(operation.security, host, operation.id);
      expect(middleware === undefined).toBe(operation.security.length === 0 || operation.security.some((alternative) => alternative.length === 0));
    },
  );

  test("a scheme the sandbox does not check, or one sent where it reads no header, is an error naming it and the operation", () => {
    const ok = { responses: { "200": { description: "OK" } } };
    const compiled = compileDescription({
      openapi: "3.1.0",
      paths: {
        "/a": { get: { operationId: "getA", security: [{ Session: [] }], ...ok } },
        "/b": { get: { operationId: "getB", security: [{ XToken: [] }], ...ok } },
      },
      components: {
        securitySchemes: { Session: { type: "apiKey", in: "header", name: "X-Session" }, XToken: { type: "apiKey", in: "cookie", name: "token" } },
      },
    });
    expect(() => securityMiddleware(compiled.operation("getA").security, host, "getA")).toThrow(
      "getA: the security scheme Session is not one the sandbox checks (XToken, AdminToken, MetricsToken, MetricsBearer)",
    );
    expect(() => securityMiddleware(compiled.operation("getB").security, host, "getB")).toThrow(
      "getB: the security scheme XToken (apiKey) sends no header the sandbox reads",
    );
  });
});
