import type { Server } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaticServer } from "../src/server.ts";
import { type OpenSite, requestsOutside, useSite, viewports } from "./support/browser.ts";
import { createPlainStaticHost } from "./support/static-host.ts";

/** Every route the page links to (sidebar, headings, search results share them: `#/section/errors`), from the rendered page, as addresses (`/section/errors`). */
async function siteAddresses(site: OpenSite): Promise<string[]> {
  const hrefs = await site.page.locator('a[href^="#/"]').evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  return [...new Set(hrefs.map((href) => href.slice(1).split("#")[0]!))].filter((address) => address !== "/").sort();
}

/** How long the viewer may take to render and scroll to a target: generous, as each wait ends once the target is in place. */
const settleMs = 30_000;

/** Where the element an address points at sits after loading its path form (`<base>section/errors`) fresh: its distance from the top of the window, or null when missing. */
async function targetOffset(site: OpenSite, address: string, base = "/"): Promise<number | null> {
  await site.page.goto(`${site.url}${base}${address.slice(1)}`, { waitUntil: "load" });
  const id = address.slice(1);
  const target = site.page.locator(`[id="${id}"]`).first();
  await target.waitFor({ state: "attached", timeout: settleMs }).catch(() => undefined);
  // The viewer scrolls once it has laid the page out; wait for the target to come to rest at the top.
  await site.page
    .waitForFunction(
      (targetId) => {
        const element = document.getElementById(targetId);
        return element !== null && Math.abs(element.getBoundingClientRect().top) < 120;
      },
      id,
      { timeout: settleMs },
    )
    .catch(() => undefined);
  return site.page.evaluate((targetId) => document.getElementById(targetId)?.getBoundingClientRect().top ?? null, id);
}

/** A project site's base path, as GitHub Pages serves one under `/<repo>/`. */
const subPath = "/some/sub/path/";

/** An address of each form the page links to: a section, a tag, a model, an event's model. */
const formSamples = ["/section/errors", "/conversations", "/conversation-export", "/event-trigger-fired"];

/** Every address the page links to, or one of each form (`formSamples`). */
type Coverage = "every address" | "one address of each form";

/**
 * The repo's server loads every address fresh. A plain static host serves the same site, its unknown paths through
 * `404.html`, which routes every address by the same code: one address of each form is loaded there (each fresh
 * load renders the whole reference, seconds of a busy CI's CPU).
 */
const hosts: [string, (root: string) => Server, string, Coverage][] = [
  ["the repo's server", createStaticServer, "/", "every address"],
  [`a plain static host (404.html for unknown paths) under ${subPath}`, (root) => createPlainStaticHost(root, subPath), subPath, "one address of each form"],
];

describe.each(hosts)("addresses load their own target on a fresh load, from %s", (_host, createServer, base, coverage) => {
  const site = useSite({ createServer, viewport: viewports.desktop, path: base });
  let addresses: string[] = [];
  beforeAll(async () => {
    addresses = await siteAddresses(site);
  });

  it("the page links to the sections, tags and models", () => {
    expect(addresses).toEqual(expect.arrayContaining(formSamples));
  });

  it(`${coverage === "every address" ? "each one lands" : "one of each form lands"} on its own heading, with nothing failing to load`, async () => {
    const misses: string[] = [];
    for (const address of coverage === "every address" ? addresses : formSamples) {
      const offset = await targetOffset(site, address, base);
      if (offset === null || Math.abs(offset) >= 120) misses.push(`${address} (target at ${offset})`);
    }
    expect(misses).toEqual([]);
    expect(site.errors).toEqual([]);
    expect(requestsOutside(site, base)).toEqual([]);
  });
});

describe("on a phone", () => {
  const site = useSite({ viewport: viewports.phone });

  it.each(["/section/errors", "/conversations", "/event-trigger-fired"])("%s lands on its own heading", async (address) => {
    const offset = await targetOffset(site, address);
    expect(offset).not.toBeNull();
    expect(Math.abs(offset ?? Infinity)).toBeLessThan(120);
  });
});
