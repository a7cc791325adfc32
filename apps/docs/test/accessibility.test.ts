import { describe, expect, it } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { loadRoute, useSite, viewports } from "./support/browser.ts";

/** One page of each kind: the overview, a section, operations, a model, an event. */
const addresses = ["/", "/section/errors", "/conversations", "/external-events", "/conversation-export", "/message-activity", "/event-trigger-fired"];

describe.each(Object.entries(viewports))("accessibility (%s)", (_name, viewport) => {
  const site = useSite({ viewport });

  it.each(addresses)("axe-core finds no serious or critical violation on %s", async (address) => {
    await loadRoute(site, address);
    await site.page
      .locator(`[id="${address === "/" ? "api-content" : address.slice(1)}"]`)
      .first()
      .waitFor({ state: "attached" });
    expect(await seriousViolations(site.page)).toEqual([]);
  });

  it("the first Tab stop is a skip link that moves focus to the content", async () => {
    await site.page.goto(`${site.url}/`, { waitUntil: "load" });
    await site.page.locator("body").press("Tab");
    expect(await site.page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await site.page.keyboard.press("Enter");
    expect(await site.page.evaluate(() => document.activeElement?.id)).toBe("api-content");
  });

  it("the contents are a navigation landmark, and the colour-mode button says what it does", async () => {
    await site.page.goto(`${site.url}/`, { waitUntil: "load" });
    // On a phone the contents open from a menu button.
    const menuButton = site.page.getByRole("button", { name: "Open navigation menu" });
    if (await menuButton.isVisible()) await menuButton.click();
    await site.page.getByRole("navigation", { name: "Contents" }).waitFor({ state: "attached" });
    expect(await site.page.getByRole("navigation", { name: "Contents" }).count()).toBe(1);
    expect(await site.page.getByRole("button", { name: "Colour mode: light. Switch to dark" }).count()).toBe(1);
  });
});

describe("keyboard search (desktop)", () => {
  const site = useSite({ viewport: viewports.desktop });

  it("Tab reaches the search box, and Enter opens it", async () => {
    await site.page.locator("body").press("Tab");
    await site.page.keyboard.press("Tab");
    expect(await site.page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("search-trigger");
    await site.page.keyboard.press("Enter");
    await site.page.getByPlaceholder("Search docs...").waitFor({ state: "visible" });
    await site.page.keyboard.press("Escape");
  });
});
