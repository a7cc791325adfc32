import { describe, expect, it } from "vitest";
import { useSite, viewports } from "./support/browser.ts";

describe("on a phone", () => {
  const site = useSite({ viewport: viewports.phone });

  it("the title breaks only between words", async () => {
    const title = site.page.locator("h1").first();
    await title.waitFor({ state: "visible" });
    const { wrap, width, words } = await title.evaluate((h1) => {
      // Each word's own box: a word broken over two lines is taller than one line.
      const range = document.createRange();
      const text = h1.firstChild as Text;
      const lineHeight = parseFloat(getComputedStyle(h1).lineHeight);
      const words = [...(text.textContent ?? "").matchAll(/\S+/g)].map((match) => {
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        return { word: match[0], lines: Math.round(range.getBoundingClientRect().height / lineHeight) };
      });
      return { wrap: getComputedStyle(h1).overflowWrap, width: h1.getBoundingClientRect().width, words };
    });
    expect(width).toBeGreaterThan(0);
    expect(wrap).not.toBe("anywhere");
    expect(words.filter((word) => word.lines > 1)).toEqual([]);
  });
});

describe("on a desktop", () => {
  const site = useSite({ path: "/#/conversations" });

  it("a code sample's copy button covers none of its code", async () => {
    const sample = site.page.locator("pre", { hasText: "curl --get" }).first();
    await sample.waitFor({ state: "visible" });
    const { button, code } = await sample.evaluate((pre) => {
      const box = (element: Element | null | undefined) => element?.getBoundingClientRect().toJSON() as DOMRect | undefined;
      return { button: box(pre.parentElement?.querySelector(".code-block-header button")), code: box(pre.querySelector("code")) };
    });
    expect(button).toBeDefined();
    expect(code!.top).toBeGreaterThanOrEqual(button!.bottom);
  });

  it("the Servers panel shows plain text, no Markdown backticks", async () => {
    const panel = site.page.getByText("Servers", { exact: true }).first().locator("xpath=ancestor::*[3]");
    await panel.waitFor({ state: "visible" });
    const text = await panel.innerText();
    expect(text).toContain("pnpm start");
    expect(text).not.toContain("`");
  });
});
