import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical violations on the page as it is, one line per element. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through DevTools, so the page's Content-Security-Policy does not apply to axe itself.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { violations } = await (
      window as unknown as {
        axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> };
      }
    ).axe.run(document);
    return violations
      .filter(({ impact }) => impact === "serious" || impact === "critical")
      .flatMap(({ id, impact, nodes }) =>
        nodes.map((node) => `${impact} ${id} at ${node.target.join(" ")}: ${(node.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 200)}`),
      );
  });
}
