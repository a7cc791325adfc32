import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { fieldsAndValues } from "../src/search-text.ts";
import { useSite, viewports } from "./support/browser.ts";
import { siteDescription } from "./support/model-pages.ts";

const description = siteDescription as unknown as { components: { schemas: Record<string, Record<string, unknown>> } };

/** Every field and enum value of every schema in the description (the seed's, by construction). */
const terms = [
  ...new Set(
    Object.values(description.components.schemas).flatMap((schema) => {
      const { fields, values } = fieldsAndValues(schema, description);
      return [...fields, ...values];
    }),
  ),
].sort();

/** Every word the description uses, to recognise two of them run together in a snippet. */
const words = new Set(
  JSON.stringify(siteDescription)
    .replaceAll("\\n", " ")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 1),
);

/** A snippet's tokens that are two of the description's words glued together ("eachtrigger"). */
function runTogether(snippet: string): string[] {
  return snippet
    .split(/[^A-Za-z0-9]+/)
    .filter((token) => token.length > 3 && !words.has(token))
    .filter((token) =>
      [...token].some((_, index) => index >= 2 && index <= token.length - 2 && words.has(token.slice(0, index)) && words.has(token.slice(index))),
    );
}

/** Opens the search box on a page. */
async function openSearch(page: Page): Promise<void> {
  await page.locator("body").click();
  await page.keyboard.press("Control+k");
  await page.getByPlaceholder("Search docs...").waitFor({ state: "visible" });
}

/** Types a term into the open search box and returns each result's address and snippet, once the results show it. */
async function search(page: Page, term: string): Promise<{ href: string; text: string }[]> {
  await page.getByPlaceholder("Search docs...").fill(term);
  // The dialog's results only: the page's own links are routes too (`#/conversation-export`).
  const results = page.locator('[data-testid="search-dialog"] a[href^="#/"]');
  await page
    .waitForFunction(
      (wanted) =>
        [...document.querySelectorAll('[data-testid="search-dialog"] a[href^="#/"]')].some((link) => (link.textContent ?? "").toLowerCase().includes(wanted)),
      term.toLowerCase(),
      { timeout: 20_000 },
    )
    .catch(() => undefined);
  return results.evaluateAll((links) =>
    links.map((link) => ({ href: link.getAttribute("href") ?? "", text: (link as HTMLElement).innerText.replace(/\s+/g, " ") })),
  );
}

describe("search finds every field and enum value", () => {
  const site = useSite({ viewport: viewports.desktop });
  beforeAll(async () => {
    await openSearch(site.page);
  });

  it("covers the seed's names, among them the ones that found nothing before", () => {
    expect(terms).toEqual(expect.arrayContaining(["contentUrl", "recognizedIntents", "isSelected", "knowledge-base-answer-trigger", "closingReason"]));
  });

  it("each term has a result showing it, and result snippets outside tables run no words together", async () => {
    const missing: string[] = [];
    const glued = new Set<string>();
    // The search box waits half a second after typing; four tabs share the terms.
    const browser = site.page.context().browser();
    if (!browser) throw new Error("the site's page has no browser");
    const tabs = [site.page, ...(await Promise.all([1, 2, 3].map(() => browser.newPage({ viewport: viewports.desktop }))))];
    await Promise.all(
      tabs.map(async (tab, index) => {
        if (tab !== site.page) {
          await tab.goto(`${site.url}/`, { waitUntil: "load" });
          await openSearch(tab);
        }
        for (const term of terms.filter((_, termIndex) => termIndex % tabs.length === index)) {
          const results = await search(tab, term);
          if (!results.some(({ text }) => text.toLowerCase().includes(term.toLowerCase()))) missing.push(term);
          // The overview's tables come back as their cells' text with nothing between (a limit of the viewer, see README).
          for (const { href, text } of results) if (href !== "#/") for (const token of runTogether(text)) glued.add(`${token} (${href})`);
        }
      }),
    );
    expect(missing).toEqual([]);
    expect([...glued]).toEqual([]);
  });

  it("closingReason finds the models that have it, not only the search response", async () => {
    const hrefs = (await search(site.page, "closingReason")).map(({ href }) => href);
    expect(hrefs).toEqual(expect.arrayContaining(["#/conversation-export", "#/conversation-summary"]));
  });
});
