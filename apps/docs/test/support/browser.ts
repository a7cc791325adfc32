import type { Server } from "node:http";
import { chromium, type Browser, type Page } from "playwright-core";
import { distDirectory } from "../../src/paths.ts";
import { createStaticServer, listen } from "../../src/server.ts";

/** Debian's Chromium, or the one CI names in CHROMIUM_PATH. */
const executablePath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const chromiumArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/** The built site open in headless Chromium, with what went wrong while it loaded. */
export interface OpenSite {
  /** The page showing `index.html`. */
  page: Page;
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Requests to any host other than the local server. */
  foreignRequests: string[];
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

/** Serves `dist/` on 127.0.0.1 (ephemeral port) and opens it in Chromium; always call `close`. */
export async function openSite(): Promise<OpenSite> {
  const server: Server = createStaticServer(distDirectory);
  const url = await listen(server, "127.0.0.1", 0);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath, args: chromiumArgs, headless: true });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    const foreignRequests: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
    page.on("request", (request) => {
      const { protocol, hostname } = new URL(request.url());
      const local = hostname === "127.0.0.1" || hostname === "localhost";
      if (!(protocol === "data:" || protocol === "blob:" || local)) foreignRequests.push(request.url());
    });
    await page.goto(`${url}/`, { waitUntil: "load" });
    const openedBrowser = browser;
    return {
      page,
      errors,
      foreignRequests,
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
