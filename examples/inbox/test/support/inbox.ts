import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startSandboxServer, type RunningSandbox } from "@bot-conversation/sandbox";
import { chromium, type Browser, type Page } from "playwright-core";
import { serveStatic, type StaticSite } from "./static-server.ts";

/** Debian's Chromium (or CHROMIUM_PATH), with the flags every browser test of the workspace uses. */
const executablePath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const chromiumArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const dist = fileURLToPath(new URL("../../dist/", import.meta.url));

/** The built inbox served on a free port, the real HTTP sandbox on another, and Chromium. */
export interface InboxRig {
  readonly sandbox: RunningSandbox;
  readonly site: StaticSite;
  readonly browser: Browser;
  /** Calls a control route of the sandbox (`/_sandbox/...`) with its token; resolves to the parsed body, if any. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Opens the inbox on the sandbox (as `?baseUrl=&token=&agentStageId=`), recording the service requests the page sends and its uncaught errors. */
  open(agentStageId: string): Promise<OpenInbox>;
  /** Closes the browser and stops both servers. */
  close(): Promise<void>;
}

/** An open inbox page. */
export interface OpenInbox {
  readonly page: Page;
  /** Path and query of every request the page sent to the service (preflights left out), in order. */
  readonly requests: string[];
  /** Uncaught exceptions in the page. */
  readonly errors: string[];
}

/** Starts the sandbox, serves `dist/` (built by `pnpm build`, which turbo runs before the tests) and launches Chromium. */
export async function startInboxRig(): Promise<InboxRig> {
  if (!existsSync(`${dist}index.html`)) throw new Error(`no built app at ${dist}: run pnpm --filter @bot-conversation/example-inbox build first`);
  const sandbox = await startSandboxServer({ host: "127.0.0.1", port: 0 });
  const site = await serveStatic(dist);
  const browser = await chromium.launch({ executablePath, args: chromiumArgs, headless: true }).catch(async (error: unknown) => {
    await Promise.all([sandbox.stop(), site.close()]);
    throw error;
  });
  return {
    sandbox,
    site,
    browser,
    async control(method, path, body) {
      const headers: Record<string, string> = { "X-Token": "sandbox-token" };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      const response = await fetch(`${sandbox.url}/_sandbox/${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      if (!response.ok) throw new Error(`${method} /_sandbox/${path} answered ${response.status}`);
      const text = await response.text();
      return text ? JSON.parse(text) : undefined;
    },
    async open(agentStageId) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const requests: string[] = [];
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("request", (request) => {
        const url = new URL(request.url());
        if (url.origin === sandbox.url && request.method() !== "OPTIONS") requests.push(`${request.method()} ${url.pathname}${url.search}`);
      });
      const settings = new URLSearchParams({ baseUrl: sandbox.url, token: "sandbox-token", agentStageId });
      await page.goto(`${site.url}/?${settings}`);
      return { page, requests, errors };
    },
    async close() {
      await browser.close();
      await Promise.all([sandbox.stop(), site.close()]);
    },
  };
}
