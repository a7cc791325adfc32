import type { Server } from "node:http";
import { launchChromium } from "@bot-conversation/test-support/browser";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { distDirectory } from "../../src/paths.ts";
import { createStaticServer, listen } from "../../src/server.ts";

/** The built site open in headless Chromium, with what went wrong while it loaded. */
export interface OpenSite {
  /** The page showing `index.html`. */
  page: Page;
  /** Where the site is served, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Requests to any host other than the local server. */
  foreignRequests: string[];
  /** Every address the page requested, in order. */
  requests: string[];
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

/** The widths the reference is checked at. */
export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** How to open the site. */
export interface OpenSiteOptions {
  /** Browser window size; desktop by default. */
  viewport?: { width: number; height: number };
  /** Serves `dist/`; the repo's server by default. */
  createServer?: (root: string) => Server;
  /** The address to open first. */
  path?: string;
}

/** Serves `dist/` on 127.0.0.1 (ephemeral port) and opens it in Chromium; always call `close`. */
export async function openSite(options: OpenSiteOptions = {}): Promise<OpenSite> {
  const server: Server = (options.createServer ?? createStaticServer)(distDirectory);
  const url = await listen(server, "127.0.0.1", 0);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: options.viewport ?? viewports.desktop });
    const errors: string[] = [];
    const foreignRequests: string[] = [];
    const requests: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
    page.on("request", (request) => {
      requests.push(request.url());
      const { protocol, hostname } = new URL(request.url());
      const local = hostname === "127.0.0.1" || hostname === "localhost";
      if (!(protocol === "data:" || protocol === "blob:" || local)) foreignRequests.push(request.url());
    });
    await page.goto(`${url}${options.path ?? "/"}`, { waitUntil: "load" });
    const openedBrowser = browser;
    return {
      page,
      url,
      errors,
      foreignRequests,
      requests,
      async close() {
        await openedBrowser.close();
        server.close();
        server.closeAllConnections();
      },
    };
  } catch (error) {
    await browser?.close();
    server.close();
    throw error;
  }
}

/** The addresses the page requested from a server outside `base` (`/some/sub/path/`); `data:` and `blob:` addresses reach no server. */
export function requestsOutside(site: OpenSite, base: string): string[] {
  return site.requests.filter((request) => {
    const { protocol, pathname } = new URL(request);
    return (protocol === "http:" || protocol === "https:") && !pathname.startsWith(base);
  });
}

/** Loads a route of the reference (`/section/errors`) fresh, in its hash form (`/#/section/errors`): a new document, not a jump within the page. */
export async function loadRoute(site: OpenSite, route: string, page: Page = site.page): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${site.url}/#${route}`, { waitUntil: "load" });
}

/**
 * Opens the site before the enclosing suite's tests and closes it after. The object returned is filled
 * in by the suite's `beforeAll`, so tests use it as they would `openSite`'s result.
 */
export function useSite(options: OpenSiteOptions = {}): OpenSite {
  const site = {} as OpenSite;
  beforeAll(async () => {
    Object.assign(site, await openSite(options));
  });
  afterAll(async () => {
    // Unset when opening failed: nothing to close.
    await (site as Partial<OpenSite>).close?.();
  });
  return site;
}
