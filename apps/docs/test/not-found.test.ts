/**
 * The not-found page as the repository's own server (`pnpm start`'s reference) answers it, in a real Chromium: it
 * knows where the site starts from the server (`withReferenceBase`), so it asks nothing to find its links: no
 * failed request, and no console error but the browser's line for the page's own 404.
 */
import { describe, expect, it } from "vitest";
import { useSite } from "./support/browser.ts";

const site = useSite();

describe("an unknown address on the repository's server", () => {
  it("shows the not-found page with its links to the home page and the search, and makes no request to find them", async () => {
    const { page } = site;
    const target = `${site.url}/no/such/page`;
    const failed: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400 && response.url() !== target) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on("requestfailed", (request) => failed.push(`failed ${request.url()}`));
    const [requestsBefore, errorsBefore] = [site.requests.length, site.errors.length];
    const answer = await page.goto(target, { waitUntil: "load" });
    expect(answer?.status()).toBe(404);
    await page.getByRole("heading", { name: "Page not found" }).waitFor({ state: "visible" });
    await page.waitForFunction(() => document.querySelectorAll("a[data-to][href]").length === 3);
    expect(await page.getByRole("link", { name: "Home page of the reference" }).evaluate((link) => (link as HTMLAnchorElement).href)).toBe(`${site.url}/`);
    expect(await page.getByRole("link", { name: "Search the reference" }).evaluate((link) => (link as HTMLAnchorElement).href)).toBe(`${site.url}/?search`);
    // The page itself, and nothing else.
    expect(site.requests.slice(requestsBefore)).toEqual([target]);
    expect(failed).toEqual([]);
    expect(site.errors.slice(errorsBefore)).toEqual(["console: Failed to load resource: the server responded with a status of 404 (Not Found)"]);
  });
});
