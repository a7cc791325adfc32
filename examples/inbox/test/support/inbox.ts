import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type RunningSandbox, startSandboxServer } from "@bot-conversation/sandbox";
import { launchChromium } from "@bot-conversation/test-support/browser";
import type { Browser, Page } from "playwright-core";
import { inPageBaseUrl, type SandboxState } from "../../src/mocks.ts";
import { serveStatic } from "./static-server.ts";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));

/** An open inbox page. */
export interface OpenInbox {
  readonly page: Page;
  /** Method, path and query of every request the page sent to the service (preflights left out), in order. */
  readonly requests: string[];
  /** Uncaught exceptions in the page. */
  readonly errors: string[];
  /** Calls a control route (`/_sandbox/...`) of the sandbox this page uses, with its token; resolves to the parsed body, if any. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
}

/** Where an inbox page gets its answers: the HTTP sandbox, or the sandbox inside the page (MSW). */
export interface Target {
  /** Its name in the tests' titles. */
  readonly name: string;
  /** Opens the inbox on the bot, the sandbox in its default data (or the named state) with no fault armed and nothing fired. */
  open(agentStageId: string, state?: SandboxState): Promise<OpenInbox>;
}

/** The built inbox served on a free port, the real HTTP sandbox on another, and Chromium. */
export interface InboxRig {
  readonly sandbox: RunningSandbox;
  /** The inbox on the HTTP sandbox (`?baseUrl=`), and on the sandbox inside the page (no base address: MSW). */
  readonly targets: readonly [Target, Target];
  /** Opens the built app with exactly these settings in its address (none: the build's own), waiting for nothing but the page's load. */
  openWith(settings: Record<string, string>): Promise<Page>;
  /** Closes the browser and stops both servers. */
  close(): Promise<void>;
}

/** Calls a control route of the HTTP sandbox from the test. */
async function controlOver(baseUrl: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { "X-Token": "sandbox-token" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${baseUrl}/_sandbox/${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw new Error(`${method} /_sandbox/${path} answered ${response.status}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** Starts the sandbox, serves `dist/` (built by `pnpm build`, which turbo runs before the tests; or another build's folder, `root`) and launches Chromium. */
export async function startInboxRig(root: string = dist): Promise<InboxRig> {
  if (!existsSync(`${root}index.html`)) throw new Error(`no built app at ${root}: run pnpm --filter @bot-conversation/example-inbox build first`);
  const sandbox = await startSandboxServer({ host: "127.0.0.1", port: 0 });
  const site = await serveStatic(root);
  const browser: Browser = await launchChromium().catch(async (error: unknown) => {
    await Promise.all([sandbox.stop(), site.close()]);
    throw error;
  });
  const service = [sandbox.url, inPageBaseUrl];

  /** Opens the built app with these settings in a fresh browser context (its own service worker), recording its requests and errors. */
  const openPage = async (settings: Record<string, string>, control: (page: Page) => OpenInbox["control"]): Promise<OpenInbox> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (service.includes(url.origin) && request.method() !== "OPTIONS" && !url.pathname.startsWith("/_sandbox/"))
        requests.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.goto(`${site.url}/?${new URLSearchParams(settings)}`);
    // The app renders once its service answers at all (the in-page sandbox first starts its worker and loads its data).
    await page.locator("main").waitFor();
    return { page, requests, errors, control: control(page) };
  };

  const http: Target = {
    name: "the HTTP sandbox",
    async open(agentStageId, state) {
      await controlOver(sandbox.url, "DELETE", "faults");
      await controlOver(sandbox.url, "POST", "reset", state ? { state } : {});
      return openPage({ baseUrl: sandbox.url, agentStageId }, () => (method, path, body) => controlOver(sandbox.url, method, path, body));
    },
  };
  const inPage: Target = {
    name: "the sandbox inside the page (MSW)",
    open(agentStageId, state) {
      return openPage({ agentStageId, ...(state ? { state } : {}) }, (page) => async (method, path, body) => {
        // From the page: its service worker hands the request to the page's sandbox.
        const [status, text] = await page.evaluate(
          async ([url, method, body]) => {
            const response = await fetch(url!, {
              method: method!,
              headers: { "X-Token": "sandbox-token", "Content-Type": "application/json" },
              ...(body ? { body } : {}),
            });
            return [response.status, await response.text()] as const;
          },
          [`${inPageBaseUrl}/_sandbox/${path}`, method, body === undefined ? undefined : JSON.stringify(body)] as const,
        );
        if (status > 299) throw new Error(`${method} /_sandbox/${path} answered ${status} in the page`);
        return text ? JSON.parse(text) : undefined;
      });
    },
  };
  return {
    sandbox,
    targets: [http, inPage],
    async openWith(settings) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${site.url}/?${new URLSearchParams(settings)}`);
      return page;
    },
    async close() {
      await browser.close();
      await Promise.all([sandbox.stop(), site.close()]);
    },
  };
}
