import { readFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { launchChromium } from "@bot-conversation/test-support/browser";
import { build } from "esbuild";
import { setupServer } from "msw/node";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSandbox, startSandboxServer } from "../src/index.ts";
import { createSandboxHandlers } from "../src/msw.ts";
import { type Call, scenarios } from "./scenarios/scenarios.ts";

/** A transport's `fetch`, adding the token (or none with `token: null`). */
function caller(send: (path: string, init: RequestInit) => Promise<Response>): Call {
  return (path, { token = "sandbox-token", ...init } = {}) => {
    const headers = new Headers(init.headers);
    if (token !== null) headers.set("x-token", token);
    return send(path, { ...init, headers });
  };
}

describe("over HTTP on loopback", () => {
  let server: RunningSandbox;
  beforeAll(async () => {
    server = await startSandboxServer({ host: "127.0.0.1", port: 0, seed: "scenarios", conversations: 30 });
  });
  afterAll(() => server.stop());
  const call = caller((path, init) => fetch(`${server.url}${path}`, init));
  test.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (_name, scenario) => scenario.run(call));

  test("the journal keeps Node's raw headers as Headers would show them: names in lower case, a repeated one joined, no token", async () => {
    await server.sandbox.reset();
    const status = await new Promise<number | undefined>((resolve, reject) => {
      // Sent as two header lines (fetch would join them before sending).
      request(
        `${server.url}/api/v2/channels/conversations`,
        { headers: { "X-Token": "sandbox-token", "X-Note": ["first", "second"], "X-Case": "Kept" } },
        (response) => {
          response.resume().on("end", () => resolve(response.statusCode));
        },
      )
        .on("error", reject)
        .end();
    });
    expect(status).toBe(200);
    const [record] = server.sandbox.requests();
    expect(record?.headers).toMatchObject({ "x-note": "first, second", "x-case": "Kept" });
    expect(Object.keys(record?.headers ?? {})).toEqual(Object.keys(record?.headers ?? {}).sort());
    expect(Object.keys(record?.headers ?? {})).not.toContain("x-token");
  });
});

describe("over MSW in Node (setupServer)", () => {
  const handlers = createSandboxHandlers({ seed: "scenarios", conversations: 30, baseUrl: "https://bots.example.com" });
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
  afterAll(() => server.close());
  const call = caller((path, init) => fetch(`https://bots.example.com${path}`, init));
  test.each(scenarios.map((scenario) => [scenario.name, scenario] as const))("%s", (_name, scenario) => scenario.run(call));

  test("a request outside the base URL is not answered by the sandbox", async () => {
    // Unhandled, so MSW (told to fail on unhandled requests) refuses it: no handler of the sandbox matched.
    const error = (await fetch("https://elsewhere.example.com/api/v2/channels/conversations").catch((caught: unknown) => caught)) as Error & { cause?: Error };
    expect(error.cause?.message).toMatch(/\[MSW\] Cannot bypass a request when using the "error" strategy/);
  });

  test("createSandboxHandlers refuses an unknown option, a file, and a bad baseUrl with a TypeError naming it", () => {
    expect(() => createSandboxHandlers({ pageSise: 5 } as never)).toThrow(/^pageSise: not an option of the sandbox/);
    expect(() => createSandboxHandlers({ data: "x.db" } as never)).toThrow(/^data: /);
    expect(() => createSandboxHandlers({ allowOrigins: ["https://app.example.com"] } as never)).toThrow(
      /^allowOrigins: the MSW handlers answer inside the page or process/,
    );
    expect(() => createSandboxHandlers({ fixture: "fixture.json" } as never)).toThrow(/^fixture: expected a fixture object/);
    expect(() => createSandboxHandlers({ baseUrl: "bots.example.com" })).toThrow(/^baseUrl: expected an http\(s\) URL/);
  });
});

describe("over MSW in Chromium (setupWorker)", () => {
  let host: Server;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // The page's script: the scenarios and the sandbox's MSW entry, bundled as a frontend's bundler would.
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL("./scenarios/browser-entry.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      write: false,
      target: "es2022",
    });
    const files: Record<string, [string, string | Uint8Array]> = {
      "/": ["text/html", '<!doctype html><meta charset="utf-8"><title>sandbox scenarios</title><script type="module" src="/app.js"></script>'],
      "/app.js": ["text/javascript", bundle.outputFiles[0]!.contents],
      "/mockServiceWorker.js": ["text/javascript", await readFile(fileURLToPath(import.meta.resolve("msw/mockServiceWorker.js")))],
    };
    host = createServer((request, response) => {
      const file = files[new URL(request.url ?? "/", "http://x").pathname];
      response.writeHead(file ? 200 : 404, { "content-type": file?.[0] ?? "text/plain" }).end(file?.[1] ?? "not found");
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    browser = await launchChromium();
    page = await browser.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/`);
    await page.evaluate(() => window.sandboxReady);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => host?.close(resolve));
  });

  test.each(scenarios.map((scenario) => [scenario.name] as const))("%s", async (name) => {
    expect(await page.evaluate((scenario) => window.runScenario(scenario), name)).toBeNull();
    expect(pageErrors).toEqual([]);
  });
});
