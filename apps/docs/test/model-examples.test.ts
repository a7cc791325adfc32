import { documentValidator } from "@bot-conversation/openapi/ajv";
import { describe, expect, it } from "vitest";
import { loadRoute, type OpenSite, useSite, viewports } from "./support/browser.ts";
import { modelPages, siteDescription } from "./support/model-pages.ts";

const bundle = documentValidator(siteDescription);

/** Opens a model page fresh and reads the example it renders, every level expanded. */
async function renderedExample(site: OpenSite, address: string): Promise<unknown> {
  await loadRoute(site, address);
  const section = site.page.locator(`[id="${address.slice(1)}"]`);
  await section.locator("pre").first().waitFor({ state: "attached" });
  const expandAll = section.getByRole("button", { name: "Expand all" });
  // Redoc expands on its next render: a level still collapsed reads `{…}`, which is no JSON. Read the text
  // again until it is whole, asking to expand each time it is not (a click on a busy machine can land before
  // Redoc listens for it; "Expand all" only expands, so a second click changes nothing else).
  let text = "";
  await expect
    .poll(
      async () => {
        text = (await section.locator("pre").first().textContent()) ?? "";
        if (parses(text)) return true;
        if ((await expandAll.count()) > 0) await expandAll.first().click();
        return false;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return JSON.parse(text);
}

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** At phone width the same examples render in another layout; three kinds of page stand for the rest. */
const pagesAt = {
  desktop: modelPages,
  phone: modelPages.filter(({ tag }) => ["Conversation export", "Message activity", "Event trigger-fired"].includes(tag)),
};

describe.each(Object.entries(viewports))("each model page shows an example valid against its own schema (%s)", (name, viewport) => {
  const site = useSite({ viewport });

  it("there is a model page per event activity, the message and the resources", () => {
    expect(modelPages.length).toBeGreaterThanOrEqual(17);
  });

  it.each(pagesAt[name as keyof typeof viewports])("$tag ($schemaRef)", async ({ address, schemaRef }) => {
    const example = await renderedExample(site, address);
    expect(bundle.problemsOf({ $ref: schemaRef }, example)).toEqual([]);
  });
});
