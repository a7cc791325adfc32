// @vitest-environment jsdom
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSandboxHandlers } from "../src/msw.ts";
import { scenarios } from "./scenarios/scenarios.ts";

// A frontend's unit tests run under jsdom: the handlers answer the page's fetch there too.
const server = setupServer(...createSandboxHandlers({ seed: "scenarios", conversations: 30 }));
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterAll(() => server.close());

test("the test runs in jsdom, with a document and a window", () => {
  expect(typeof document.createElement).toBe("function");
  expect(window.location.href).toMatch(/^http:\/\/localhost/);
});

test.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (_name, scenario) =>
  scenario.run((path, { token = "sandbox-token", ...init } = {}) => {
    const headers = new Headers(init.headers);
    if (token !== null) headers.set("x-token", token);
    // A relative address, as a page's code writes it: jsdom resolves it against the page's location.
    return fetch(new URL(path, window.location.href), { ...init, headers });
  }),
);
