import { type HostileServer, startHostileServer } from "@bot-conversation/test-support/hostile-server";
import { afterEach, describe, expect, it } from "vitest";
import { tryItTimeoutMs } from "../src/try-it/panel.ts";
import { useSite } from "./support/browser.ts";
import { openPanel, send } from "./support/try-it.ts";

/** What a hostile server must send for the page to read its answer: it lets any origin in. */
const cors = { "access-control-allow-origin": "*" };
const token = "docs-hostile-token-8c1e";
const servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const site = useSite();

describe("Try it, in Chromium, against a hostile server", () => {
  it("a redirect is not followed: the panel says so, and the origin it names gets nothing, the token least of all", async () => {
    const elsewhere = await startHostileServer("echo-token", { headers: cors });
    const redirecting = await startHostileServer("redirect", { headers: cors, redirectTarget: elsewhere.url });
    servers.push(elsewhere, redirecting);
    const panel = await openPanel(site, "/conversations/searchconversations", "searchConversations", redirecting.url, token);
    const { status, body } = await send(panel, {});
    expect(status).toBe(
      "A redirect (3xx), not followed: the browser hides its status and address, and nothing was sent to where it points (the client does the same). Use the address it redirects to as the server, if you trust it.",
    );
    expect(body).toBe("");
    expect(redirecting.requests.some((request) => request.headers["x-token"] === token)).toBe(true);
    expect(elsewhere.requests).toEqual([]);
  });

  it("a body that never comes: stopped after the time-out with a visible message, and the button works again", async () => {
    const stalling = await startHostileServer("stall", { headers: cors });
    servers.push(stalling);
    const panel = await openPanel(site, "/conversations/searchconversations", "searchConversations", stalling.url, token);
    // The page's timers from here on run on Playwright's clock, so the time-out is reached without waiting for it.
    await site.page.clock.install();
    const button = panel.getByRole("button", { name: "Send request" });
    await button.click();
    const status = panel.getByRole("status");
    await status.filter({ hasText: "Sending…" }).waitFor();
    // The status line arrived: the server has the request, and holds its body back.
    await expect.poll(() => stalling.requests.filter((request) => request.method === "GET").length).toBe(1);
    expect(await button.isDisabled()).toBe(true);
    await site.page.clock.fastForward(tryItTimeoutMs);
    await status.filter({ hasText: /^Stopped/ }).waitFor();
    expect(await status.innerText()).toBe(`Stopped: no complete answer from ${stalling.url} within 30 s. Send again, or run the curl line.`);
    expect(await button.isEnabled()).toBe(true);
    // The button sends again.
    await button.click();
    await expect.poll(() => stalling.requests.filter((request) => request.method === "GET").length).toBe(2);
  });
});
