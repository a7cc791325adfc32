import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { inlineScripts } from "../src/csp.ts";
import { distDirectory } from "../src/paths.ts";
import { sandboxControlPage, sandboxSectionHeading } from "../src/sandbox-link.ts";
import { useSite } from "./support/browser.ts";

const html = readFileSync(join(distDirectory, sandboxControlPage), "utf8");

/** The control API's description as the sandbox writes it (its source, not the page): every route, and every tag with its first operation. */
const source = parse(readFileSync(join(import.meta.dirname, "../../../packages/sandbox/openapi/sandbox-control.yaml"), "utf8")) as {
  paths: Record<string, Record<string, { operationId: string; summary: string; tags: string[] }>>;
};
const operations = Object.entries(source.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, ...operation })));

describe("the sandbox control API's page", () => {
  it("renders the control API's description: every route under /_sandbox/", () => {
    const definition = JSON.parse(/const __redoc_definition = (\{.*\});\s*$/m.exec(html)?.[1] ?? "null") as {
      info: { title: string };
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(definition.info.title).toBe("Bot Conversation Sandbox control API");
    const routes = Object.entries(definition.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );
    // Every route of the description, the shared sandbox's workspaces and health among them.
    expect(routes.sort()).toEqual(operations.map((operation) => `${operation.method.toUpperCase()} ${operation.path} ${operation.operationId}`).sort());
    expect(routes).toContain("POST /_sandbox/workspaces createSandboxWorkspace");
  });

  it("is self-contained like the main reference: no remote script or style, a policy with its inline scripts' hashes", () => {
    const external = [...html.matchAll(/<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)="([^"]+)"/gi)]
      .map((match) => match[1] ?? "")
      .filter((url) => /^(https?:)?\/\//i.test(url));
    expect(external).toEqual([]);
    expect(html).not.toContain("cdn.redocly.com");
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(policy?.match(/'sha256-[^']+'/g)).toHaveLength(inlineScripts(html).length);
  });
});

describe("reached from the main reference in Chromium", () => {
  const site = useSite();

  it("the sidebar's Sandbox control API section links to the page, which renders every control operation", async () => {
    const { page } = site;
    await page.locator('a[href="#/section/sandbox-control-api"]').first().click();
    await page.getByRole("heading", { name: sandboxSectionHeading }).first().waitFor({ state: "visible" });
    await Promise.all([page.waitForURL(`${site.url}/${sandboxControlPage}`), page.locator(`a[href="${sandboxControlPage}"]`).first().click()]);
    await page.getByRole("heading", { name: "Bot Conversation Sandbox control API" }).first().waitFor({ state: "visible" });
    // Every control operation has its entry in the sidebar and renders at its own address, under its
    // summary. The viewer renders the page's sections as they come into view and opens a tag's group of
    // entries when one of them is current: each operation is reached by its address, as a link would.
    for (const operation of operations) {
      const address = `#/${operation.tags[0]?.toLowerCase()}/${operation.operationId.toLowerCase()}`;
      await page.evaluate((hash) => {
        window.location.hash = hash;
      }, address);
      // The heading's text is the summary alone (its deep link's name, "link to …", is not text).
      await page.locator("h2", { hasText: new RegExp(`^${operation.summary.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }).waitFor({ state: "visible" });
      await page.getByRole("navigation", { name: "Contents" }).locator(`a[href="${address}"]`).waitFor({ state: "attached" });
      expect(page.url()).toBe(`${site.url}/${sandboxControlPage}${address}`);
    }
    await page.locator('a[href^="#/"]', { hasText: "post/_sandbox/faults" }).first().click();
    await page.getByRole("heading", { name: "Inject a fault" }).first().waitFor({ state: "visible" });
    // A reload stays on the page: its address is not turned into the main reference's hash.
    await page.reload({ waitUntil: "load" });
    expect(await page.title()).toBe("Bot Conversation Sandbox control API");
    expect(site.errors).toEqual([]);
    expect(site.foreignRequests).toEqual([]);
  });
});

describe("the control page's own links, opened in a new tab", () => {
  const site = useSite({ path: `/${sandboxControlPage}` });

  it("each one loads the control page at its section, never the main reference", async () => {
    const hrefs = [...new Set([...html.matchAll(/href="(#\/[^"]*)"/g)].map((match) => match[1]!))];
    expect(hrefs.length).toBeGreaterThanOrEqual(3);
    for (const href of hrefs) {
      // A new tab is a fresh load of the address the link resolves to.
      await site.page.goto("about:blank");
      await site.page.goto(`${site.url}/${sandboxControlPage}${href}`, { waitUntil: "load" });
      expect(await site.page.title(), href).toBe("Bot Conversation Sandbox control API");
    }
    expect(site.errors).toEqual([]);
  });
});
