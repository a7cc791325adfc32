import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { viewerFileName } from "../src/viewer.ts";
import { type OpenSite, useSite } from "./support/browser.ts";

const screenshotDirectory = fileURLToPath(new URL("../screenshots/", import.meta.url));

const site = useSite();

/** Clicks a sidebar entry by its link target and waits for the page heading it leads to. */
async function openFromSidebar(href: string, heading: string): Promise<void> {
  await site.page.locator(`a[href="${href}"]`).first().click();
  await site.page.getByRole("heading", { name: heading }).first().waitFor({ state: "visible" });
}

describe("the seed's nine parts in the sidebar", () => {
  it.each([
    ["Purpose", "#/section/purpose"],
    ["Resources", "#/section/resources"],
    ["States and transitions", "#/section/states-and-transitions"],
    ["Endpoints", "#/section/endpoints"],
    ["Authentication", "#/section/authentication"],
    ["Events", "#/section/events"],
    ["Errors", "#/section/errors"],
    ["Limits", "#/section/limits"],
    ["Versioning", "#/section/versioning"],
  ])("%s has its own sidebar entry", async (title, href) => {
    const link = site.page.locator(`a[href="${href}"]`).first();
    expect(await link.isVisible()).toBe(true);
    expect((await link.innerText()).trim()).toBe(title);
  });
});

describe("sections", () => {
  it("Authentication shows the X-Token header", async () => {
    await openFromSidebar("#/section/authentication", "Authentication");
    expect(await site.page.getByText("X-Token: <API_TOKEN>").first().isVisible()).toBe(true);
  });

  it("Errors shows the error table, one row per operation and status", async () => {
    await openFromSidebar("#/section/errors", "Errors");
    const table = site.page.locator("table", { hasText: "Authorization failed; check the token." }).first();
    expect(await table.isVisible()).toBe(true);
    const rows = await table.locator("tbody tr").allInnerTexts();
    expect(rows.some((row) => row.includes("Fire event") && row.includes("404"))).toBe(true);
    expect(rows.some((row) => row.includes("List triggers") && row.includes("500"))).toBe(true);
  });
});

/** Picks a language in an operation's sample panel (Redoc 3 shows one language at a time, chosen from a menu). */
async function chooseSampleLanguage(operation: ReturnType<OpenSite["page"]["locator"]>, language: string): Promise<void> {
  const menuButton = operation.getByRole("button", { name: /^(curl|TypeScript)$/ }).first();
  if ((await menuButton.innerText()).trim() === language) return;
  await menuButton.click();
  await site.page.getByRole("menuitem", { name: language, exact: true }).filter({ visible: true }).first().click();
  await operation.getByRole("button", { name: language, exact: true }).first().waitFor({ state: "visible" });
}

describe("operations", () => {
  it.each([
    ["#/conversations", "Search conversations"],
    ["#/external-events", "List external event triggers"],
    ["#/external-events", "Fire an external event"],
  ])("%s › %s has a page with its curl and TypeScript samples", async (tagHref, summary) => {
    await site.page.locator(`a[href="${tagHref}"]`).first().click();
    await site.page.locator("a", { hasText: summary }).first().click();
    const heading = site.page.getByRole("heading", { name: summary }).first();
    await heading.waitFor({ state: "visible" });
    // The operation's own sample panel: the one after its heading.
    const operation = site.page.locator(`[id]:has(> * h2:text-is("${summary}")), [id]:has(h2:text-is("${summary}"))`).last();
    await chooseSampleLanguage(operation, "curl");
    expect(await operation.getByText("X-Token: $BOT_CONVERSATION_TOKEN").first().isVisible()).toBe(true);
    await chooseSampleLanguage(operation, "TypeScript");
    expect(await operation.getByText("createBotConversationClient").first().isVisible()).toBe(true);
  });
});

describe("models", () => {
  it("the conversation export has its own page with its fields", async () => {
    await openFromSidebar("#/conversation-export", "Conversation export model");
    for (const field of ["history", "members", "closingReason"]) {
      expect(await site.page.getByText(field, { exact: true }).filter({ visible: true }).count()).toBeGreaterThan(0);
    }
  });

  it("the Resources table links each named schema to its model page", async () => {
    await openFromSidebar("#/section/resources", "Resources");
    const table = site.page.locator("table", { hasText: "Page envelope of a search result" }).first();
    const links = await table
      .locator("a")
      .evaluateAll((anchors) => anchors.map((anchor) => ({ name: anchor.textContent ?? "", href: anchor.getAttribute("href") ?? "" })));
    expect(links.map(({ name }) => name)).toEqual(
      expect.arrayContaining(["ConversationSummary", "ConversationPage", "ExternalEventTrigger", "FireExternalEventRequest", "ConversationExport"]),
    );
    for (const { name, href } of links) {
      // Each target is a model page: a sidebar entry under Models.
      const entry = site.page.locator(`a[href="${href}"] [data-text]`).first();
      expect(await entry.getAttribute("data-text"), `${name} → ${href}`).toMatch(/model$|^Message activity$/);
    }
    await table.getByRole("link", { name: "ConversationSummary" }).click();
    await site.page.getByRole("heading", { name: "Conversation summary model" }).first().waitFor({ state: "visible" });
    expect(await site.page.getByText("latestMessageDirection", { exact: true }).filter({ visible: true }).count()).toBeGreaterThan(0);
    // The link is a page load; the other tests start from the overview.
    await site.page.goto(`${site.url}/`, { waitUntil: "load" });
  });

  it("each event activity has its own page", async () => {
    await openFromSidebar("#/event-trigger-fired", "Event: trigger-fired");
    expect(await site.page.getByText("triggerType", { exact: true }).filter({ visible: true }).count()).toBeGreaterThan(0);
  });
});

describe("search", () => {
  it('finds "externalEventId" in the operations that use it', async () => {
    await site.page.locator("body").click();
    await site.page.keyboard.press("Control+k");
    const input = site.page.getByPlaceholder("Search docs...");
    await input.waitFor({ state: "visible" });
    try {
      await input.fill("externalEventId");
      // The hit inside the request body of fireExternalEvent, with the term highlighted.
      await site.page.getByText("request fields").filter({ visible: true }).first().waitFor({ state: "visible" });
      expect(await site.page.getByText("externalEventId", { exact: true }).filter({ visible: true }).count()).toBeGreaterThan(0);
    } finally {
      await site.page.keyboard.press("Escape");
    }
  });
});

describe("weight", () => {
  it("the page and the viewer arrive compressed, at under a third of their size", async () => {
    const arrivals: { path: string; encoding: string | undefined; encodedBytes: number; bytes: number }[] = [];
    const onResponse = async (response: import("playwright-core").Response): Promise<void> => {
      const path = new URL(response.url()).pathname;
      if (path !== "/" && path !== `/${viewerFileName}`) return;
      const sizes = await response.request().sizes();
      arrivals.push({
        path,
        encoding: (await response.allHeaders())["content-encoding"],
        encodedBytes: sizes.responseBodySize,
        bytes: (await response.body()).length,
      });
    };
    // A first visit: nothing from the cache (a revalidated copy arrives as a bodiless 304).
    const devtools = await site.page.context().newCDPSession(site.page);
    await devtools.send("Network.enable");
    await devtools.send("Network.setCacheDisabled", { cacheDisabled: true });
    site.page.on("response", onResponse);
    try {
      await site.page.goto(`${site.url}/`, { waitUntil: "load" });
      // Each arrival is recorded after three round trips to the browser; poll's default second is not
      // enough on a loaded machine. It returns as soon as both are in.
      await expect.poll(() => arrivals.length, { timeout: 30_000 }).toBe(2);
    } finally {
      site.page.off("response", onResponse);
      await devtools.detach();
    }
    for (const { path, encoding, encodedBytes, bytes } of arrivals) {
      expect(["br", "gzip"], path).toContain(encoding);
      expect(encodedBytes, path).toBeLessThan(bytes / 3);
    }
  });
});

describe("self-contained", () => {
  it("saves a screenshot of the overview", async () => {
    await site.page.locator('a[href="#/"]').first().click();
    await site.page.getByRole("heading", { name: "Purpose" }).first().waitFor({ state: "visible" });
    mkdirSync(screenshotDirectory, { recursive: true });
    const image = await site.page.screenshot({ path: `${screenshotDirectory}reference.png` });
    expect(image.byteLength).toBeGreaterThan(10_000);
  });

  it("logged no console error and requested nothing from another host", () => {
    expect(site.errors).toEqual([]);
    expect(site.foreignRequests).toEqual([]);
  });
});
