import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../src/csp.ts";
import { machineFiles } from "../src/machine.ts";
import { withReferenceBase } from "../src/not-found.ts";
import { referenceBasePath } from "../src/options.ts";
import { distDirectory } from "../src/paths.ts";
import { sandboxControlPage } from "../src/sandbox-link.ts";
import { requestsOutside, useSite } from "./support/browser.ts";
import { createPlainStaticHost } from "./support/static-host.ts";

/** Where a GitHub Pages project site lives (`/<repo>/`), deeper. */
const subPath = "/some/sub/path/";

/** The Markdown links of a page, as addresses resolved against the page's own. */
function markdownLinks(markdown: string, pageUrl: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => new URL(match[1]!, pageUrl).href).filter((url) => url.startsWith(new URL(pageUrl).origin));
}

/**
 * `404.html` as the site built for this base path (`DOCS_BASE_PATH=/some/sub/path`, as configure-pages reports it)
 * holds it: the build's own steps (`referenceBasePath`, then `withReferenceBase`) over the built page.
 */
const notFoundPage = withReferenceBase(readFileSync(join(distDirectory, "404.html"), "utf8"), referenceBasePath({ DOCS_BASE_PATH: subPath.slice(0, -1) }));

describe(`the built site under ${subPath}, from a plain static host that has nothing outside it`, () => {
  const site = useSite({ createServer: (root) => createPlainStaticHost(root, subPath, notFoundPage), path: subPath });
  const at = (address: string) => `${site.url}${subPath}${address}`;

  /** A fresh load of an address under the base path, as a new tab or a shared link does. */
  async function loadFresh(address: string): Promise<void> {
    await site.page.goto("about:blank");
    await site.page.goto(at(address), { waitUntil: "load" });
  }

  it("loads the overview, and the sidebar routes to an operation", async () => {
    const { page } = site;
    await page.getByRole("heading", { name: "Purpose" }).first().waitFor({ state: "visible" });
    await page.locator('a[href="#/conversations"]').first().click();
    await page.locator("a", { hasText: "Search conversations" }).first().click();
    await page.getByRole("heading", { name: "Search conversations" }).first().waitFor({ state: "visible" });
    expect(page.url()).toBe(at("#/conversations/searchconversations"));
  });

  it.each([
    ["an operation's address", "#/external-events/fireexternalevent", "Fire an external event", "#/external-events/fireexternalevent"],
    ["a section's address", "#/section/errors", "Errors", "#/section/errors"],
    ["a section's path form (its folder's redirect page)", "section/errors", "Errors", "#/section/errors"],
    ["a model's path form", "conversation-export", "Conversation export model", "#/conversation-export"],
  ])("a fresh load of %s (%s) shows its heading, at the viewer's address under the base path", async (_kind, address, heading, landing) => {
    await loadFresh(address);
    await site.page.getByRole("heading", { name: heading }).first().waitFor({ state: "visible" });
    await site.page.waitForURL(at(landing));
    expect(site.errors).toEqual([]);
  });

  it("an operation's Try it panel, a file of the site, loads under the base path too", async () => {
    await loadFresh("#/external-events/fireexternalevent");
    await site.page.locator('[data-try-it="fireExternalEvent"]').getByText("Try it: send this request").waitFor({ state: "visible" });
    expect(site.requests).toEqual(expect.arrayContaining([at("try-it/panel.js"), at("try-it/request.js")]));
  });

  it("the sandbox control API's page: linked from the reference, and a fresh load of one of its routes", async () => {
    const { page } = site;
    await loadFresh("#/section/sandbox-control-api");
    await Promise.all([page.waitForURL(at(sandboxControlPage)), page.locator(`a[href="${sandboxControlPage}"]`).first().click()]);
    await page.getByRole("heading", { name: "Bot Conversation Sandbox control API" }).first().waitFor({ state: "visible" });
    await loadFresh(`${sandboxControlPage}#/faults`);
    expect(await page.title()).toBe("Bot Conversation Sandbox control API");
    await page.getByRole("heading", { name: "Inject a fault" }).first().waitFor({ state: "visible" });
    expect(site.errors).toEqual([]);
  });

  it("llms.txt, linked from the page, and every page it links to, with theirs, are found under the base path", async () => {
    await loadFresh("#/section/for-machines");
    const index = await site.page
      .locator(`a[href="${machineFiles.index}"]`)
      .first()
      .evaluate((link) => (link as HTMLAnchorElement).href);
    expect(index).toBe(at(machineFiles.index));
    const pages = markdownLinks(await (await fetch(index)).text(), index);
    expect(pages.length).toBeGreaterThan(10);
    const linked = new Set(pages);
    for (const page of pages.filter((url) => url.endsWith(".md"))) for (const link of markdownLinks(await (await fetch(page)).text(), page)) linked.add(link);
    const statuses = await Promise.all([...linked].map(async (url) => `${(await fetch(url, { method: "HEAD" })).status} ${url}`));
    expect(statuses.filter((status) => !status.startsWith("200 ") || !status.includes(subPath))).toEqual([]);
  });

  it("an operation's path form, which has no folder, is found by 404.html, and an unknown address is not found", async () => {
    await loadFresh("external-events/listexternaleventtriggers");
    await site.page.waitForURL(at("#/external-events/listexternaleventtriggers"));
    await site.page.getByRole("heading", { name: "List external event triggers" }).first().waitFor({ state: "visible" });
    await loadFresh("no/such/page");
    await site.page.getByRole("heading", { name: "Page not found" }).waitFor({ state: "visible" });
    expect(site.page.url()).toBe(at("no/such/page"));
  });

  it("an unknown address shows the not-found page in the reference's look, with links to its home page and to its search, which opens; nothing fails", async () => {
    const { page } = site;
    // What fails beyond the addresses loaded (the host answers an unknown one 404): a request, a console error.
    const failures: string[] = [];
    const loaded = new Set<string>();
    // A request the test's own next navigation cancelled (a script still loading, or only starting, in the page the
    // test leaves, on a busy machine) is not a failure of the site: one aborted once the page has committed another
    // document is left out. (The old document runs until the new one commits, so it is counted by commits, not by
    // navigation requests.)
    let navigations = 0;
    const navigationsBefore = new WeakMap<Request, number>();
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    page.on("request", (request) => {
      if (request.isNavigationRequest()) loaded.add(request.url());
      else navigationsBefore.set(request, navigations);
    });
    page.on("response", (response) => {
      if (response.status() >= 400 && !loaded.has(response.url())) failures.push(`${response.status()} ${response.url()}`);
    });
    page.on("requestfailed", (request) => {
      const reason = request.failure()?.errorText ?? "no reason given";
      const leftBehind = reason === "net::ERR_ABORTED" && (navigationsBefore.get(request) ?? navigations) < navigations;
      if (!leftBehind) failures.push(`failed ${request.url()} (${reason})`);
    });
    page.on("console", (message) => {
      const ownStatus = loaded.has(message.location().url) && message.text().endsWith("the server responded with a status of 404 (Not Found)");
      if (message.type() === "error" && !ownStatus) failures.push(`console: ${message.text()} (${message.location().url})`);
    });
    await loadFresh("");
    const heading = page.getByRole("heading", { level: 1 }).first();
    await heading.waitFor({ state: "visible" });
    const look = (element: Element) => ({
      font: getComputedStyle(element).fontFamily,
      colour: getComputedStyle(element).color,
      weight: getComputedStyle(element).fontWeight,
    });
    const referenceLook = await heading.evaluate(look);
    await loadFresh("no/such/page");
    await page.getByRole("heading", { name: "Page not found" }).waitFor({ state: "visible" });
    expect(await page.getByRole("heading", { name: "Page not found" }).evaluate(look)).toEqual(referenceLook);
    const home = page.getByRole("link", { name: "Home page of the reference" });
    const search = page.getByRole("link", { name: "Search the reference" });
    // The links start at the base path the build wrote into the page.
    await page.waitForFunction(() => document.querySelectorAll("a[data-to][href]").length === 3);
    expect(await home.evaluate((link) => (link as HTMLAnchorElement).href)).toBe(at(""));
    expect(await search.evaluate((link) => (link as HTMLAnchorElement).href)).toBe(at("?search"));
    await search.click();
    await page.getByPlaceholder("Search docs...").waitFor({ state: "visible" });
    expect(page.url()).toBe(at(""));
    await page.keyboard.press("Escape");
    await loadFresh("no/such/page");
    await home.click();
    await page.getByRole("heading", { name: "Purpose" }).first().waitFor({ state: "visible" });
    expect(loaded).toContain(at("no/such/page"));
    expect(failures).toEqual([]);
  });

  it('the sidebar\'s badge reads whole offline: "API docs by" and a logo drawn from the page itself', async () => {
    await loadFresh("");
    const badge = site.page.locator('a[href="https://redocly.com/redoc/"]');
    await badge.locator("img").waitFor({ state: "visible" });
    const logo = await badge.locator("img").evaluate((image) => ({
      drawn: (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
      source: (image as HTMLImageElement).src.slice(0, 19),
    }));
    expect(logo).toEqual({ drawn: true, source: "data:image/svg+xml," });
    expect(decodeURIComponent(await badge.locator("img").getAttribute("src").then(String))).toContain(">Redocly</text>");
    expect(await badge.innerText()).toBe("API docs by");
  });

  it("the page requested nothing outside the base path, and nothing from another host", () => {
    expect(site.requests.length).toBeGreaterThan(10);
    expect(requestsOutside(site, subPath)).toEqual([]);
    expect(site.foreignRequests).toEqual([]);
  });
});

describe("404.html", () => {
  const html = readFileSync(join(distDirectory, "404.html"), "utf8");

  it("holds its base path, / when the build is given none, and asks nothing of the host (no fetch)", () => {
    expect(html).toContain('<meta name="reference-base" content="/" />');
    expect(html).not.toContain("fetch(");
    expect(notFoundPage).toContain(`<meta name="reference-base" content="${subPath}" />`);
  });

  it("holds no address from the host's root and no viewer, under the same policy as the pages, with its script's hash", () => {
    expect(html).not.toMatch(/\b(?:href|src)="\/(?!\/)/);
    expect(html).not.toContain("redoc.standalone.js");
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(policy).toBe(contentSecurityPolicy(html));
    expect(policy?.match(/'sha256-[^']+'/g)).toHaveLength(1);
  });
});
