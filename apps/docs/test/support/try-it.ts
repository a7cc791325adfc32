import type { Locator } from "playwright-core";
import { loadRoute, type OpenSite } from "./browser.ts";

/** Opens an operation's page fresh and its "Try it" panel, aimed at `server` (typed as another server) with the token `token`. */
export async function openPanel(site: OpenSite, route: string, operationId: string, server: string, token: string): Promise<Locator> {
  await loadRoute(site, route);
  const panel = site.page.locator(`[data-try-it="${operationId}"]`);
  await panel.locator("summary").click();
  await panel.getByLabel("Server", { exact: true }).selectOption({ label: "Another server (type its address)" });
  await panel.getByLabel("Server address").fill(server);
  await panel.getByLabel("X-Token").fill(token);
  return panel;
}

/** Fills the form's fields by name, sends, and returns the status line, the curl line and the response body once the status is in. */
export async function send(panel: Locator, values: Record<string, string>): Promise<{ status: string; curl: string; body: string }> {
  for (const [name, value] of Object.entries(values)) await panel.getByLabel(new RegExp(`^${name}( \\(required\\))?$`)).fill(value);
  await panel.getByRole("button", { name: "Send request" }).click();
  const status = panel.getByRole("status");
  await status.filter({ hasText: /^(\d{3} |Not sent|No response|A redirect|Stopped)/ }).waitFor();
  const text = async (name: string) => ((await panel.getByLabel(name).isVisible()) ? await panel.getByLabel(name).innerText() : "");
  return { status: await status.innerText(), curl: await text("The request as curl"), body: await text("Response body") };
}
