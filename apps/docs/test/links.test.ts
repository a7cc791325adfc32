import type { Server } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaticServer } from "../src/server.ts";
import { useSite, viewports, type OpenSite } from "./support/browser.ts";
import { createPlainStaticHost } from "./support/static-host.ts";

/** Every in-site address the page links to (sidebar, headings, search results share them), from the rendered page. */
async function siteAddresses(site: OpenSite): Promise<string[]> {
  const hrefs = await site.page.locator('a[href^="/"]').evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  return [...new Set(hrefs)].filter((href) => href !== "/" && !/\.\w+$/.test(href)).sort();
}

/** How long the viewer may take to render and scroll to a target: generous, as each wait ends once the target is in place. */
const settleMs = 30_000;

/** Where the element an address points at sits after loading it fresh: its distance from the top of the window, or null when missing. */
async function targetOffset(site: OpenSite, address: string): Promise<number | null> {
  await site.page.goto(`${site.url}${address}`, { waitUntil: "load" });
  const id = address.slice(1);
  const target = site.page.locator(`[id="${id}"]`).first();
  await target.waitFor({ state: "attached", timeout: settleMs }).catch(() => undefined);
  // The viewer scrolls once it has laid the page out; wait for the target to come to rest at the top.
  await site.page.waitForFunction((targetId) => {
    const element = document.getElementById(targetId);
    return element !== null && Math.abs(element.getBoundingClientRect().top) < 120;
  }, id, { timeout: settleMs }).catch(() => undefined);
  return site.page.evaluate((targetId) => document.getElementById(targetId)?.getBoundingClientRect().top ?? null, id);
}

const hosts: [string, (root: string) => Server][] = [
  ["the repo's server", createStaticServer],
  ["a plain static host (404.html for unknown paths)", createPlainStaticHost],
];

describe.each(hosts)("every address loads its own target on a fresh load, from %s", (_host, createServer) => {
  const site = useSite({ createServer, viewport: viewports.desktop });
  let addresses: string[] = [];
  beforeAll(async () => {
    addresses = await siteAddresses(site);
  });

  it("the page links to the sections, tags and models", () => {
    expect(addresses).toEqual(expect.arrayContaining(["/section/errors", "/conversations", "/conversation-export", "/event-trigger-fired"]));
  });

  it("each one lands on its own heading, with nothing failing to load", async () => {
    const misses: string[] = [];
    for (const address of addresses) {
      const offset = await targetOffset(site, address);
      if (offset === null || Math.abs(offset) >= 120) misses.push(`${address} (target at ${offset})`);
    }
    expect(misses).toEqual([]);
    expect(site.errors).toEqual([]);
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
