import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startSandboxServer } from "@bot-conversation/sandbox";
import { useSandboxServer } from "@bot-conversation/test-support/sandbox";
import { beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { loadRoute, useSite } from "./support/browser.ts";
import { openPanel as openPanelOn, send } from "./support/try-it.ts";

/** The token the test's sandbox takes; it must never show up outside the password field. */
const token = "docs-try-it-token-4d2a";

const sandbox = useSandboxServer(startSandboxServer, { tokens: [token], conversations: 40 });

/** A GET or DELETE on the sandbox itself, with the token. */
async function onSandbox<T>(path: string, method = "GET"): Promise<T> {
  const response = await fetch(`${sandbox().url}${path}`, { method, headers: { "X-Token": token } });
  const text = await response.text();
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

const site = useSite();

/** Opens an operation's panel aimed at the test's sandbox, with its token unless told otherwise. */
const openPanel = (route: string, operationId: string, tokenValue = token) => openPanelOn(site, route, operationId, sandbox().url, tokenValue);

describe("Try it, in Chromium, against the real sandbox", () => {
  let bot: { agentStageId: string; externalEventIds: string[] };
  beforeAll(async () => {
    const bots = await onSandbox<{ agentStageId: string; externalEventIds: string[]; conversations: number }[]>("/_sandbox/bots");
    bot = bots.find((candidate) => candidate.conversations >= 3 && candidate.externalEventIds.includes("order-status-changed"))!;
  });

  it("offers the local sandbox and the mock at their default addresses", async () => {
    await loadRoute(site, "/conversations/searchconversations");
    const panel = site.page.locator('[data-try-it="searchConversations"]');
    await panel.locator("summary").click();
    const options = await panel.getByLabel("Server", { exact: true }).locator("option").allInnerTexts();
    expect(options).toEqual([
      "The local sandbox started by pnpm start: http://127.0.0.1:4011",
      "The local Prism mock started by pnpm start: http://127.0.0.1:4010",
      "Another server (type its address)",
    ]);
  });

  it("a search shows its page of items as the sandbox answers it, and the curl line, run, makes the same request", async () => {
    const panel = await openPanel("/conversations/searchconversations", "searchConversations");
    const result = await send(panel, { agentStageId: bot.agentStageId, pageSize: "2" });
    expect(result.status).toBe("200 OK (application/json)");
    const page = JSON.parse(result.body) as { items: { id: string }[]; pageSize: number };
    expect(page.items).toHaveLength(2);
    expect(page).toEqual(await onSandbox(`/api/v2/channels/conversations?agentStageId=${bot.agentStageId}&pageSize=2`));
    expect(result.curl).toBe(
      `curl '${sandbox().url}/api/v2/channels/conversations?agentStageId=${bot.agentStageId}&pageSize=2' --header "X-Token: $BOT_CONVERSATION_TOKEN"`,
    );
    const { stdout } = await promisify(execFile)("sh", ["-c", result.curl], { env: { PATH: process.env["PATH"], BOT_CONVERSATION_TOKEN: token } });
    expect(JSON.parse(stdout)).toEqual(page);
    expect(await seriousViolations(site.page)).toEqual([]);
  });

  it("lists a bot's triggers", async () => {
    const panel = await openPanel("/external-events/listexternaleventtriggers", "listExternalEventTriggers");
    const result = await send(panel, { agentStageId: bot.agentStageId });
    expect(result.status).toBe("200 OK (application/json)");
    expect((JSON.parse(result.body) as { externalEventId: string }[]).map((trigger) => trigger.externalEventId)).toEqual(bot.externalEventIds);
  });

  it("a fire is sent once and seen in the sandbox's journal", async () => {
    await onSandbox("/_sandbox/fired-events", "DELETE");
    const { items } = await onSandbox<{ items: { id: string }[] }>(`/api/v2/channels/conversations?agentStageId=${bot.agentStageId}&pageSize=1`);
    const panel = await openPanel("/external-events/fireexternalevent", "fireExternalEvent");
    const result = await send(panel, {
      conversationId: items[0]!.id,
      externalEventId: "order-status-changed",
      externalEventPayload: '{ "orderNumber": "10482" }',
    });
    expect(result.status).toMatch(/^200 OK/);
    expect(result.curl).toContain(
      `--data '{"conversationId":"${items[0]!.id}","externalEventId":"order-status-changed","externalEventPayload":{"orderNumber":"10482"}}'`,
    );
    const journal = await onSandbox<{ conversationId: string; externalEventId: string; externalEventPayload: unknown }[]>("/_sandbox/fired-events");
    expect(journal.map(({ conversationId, externalEventId, externalEventPayload }) => ({ conversationId, externalEventId, externalEventPayload }))).toEqual([
      { conversationId: items[0]!.id, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: "10482" } },
    ]);
  });

  it("a payload that is not JSON is refused by name, and nothing is fired", async () => {
    await onSandbox("/_sandbox/fired-events", "DELETE");
    const panel = await openPanel("/external-events/fireexternalevent", "fireExternalEvent");
    const result = await send(panel, { conversationId: "any", externalEventId: "order-status-changed", externalEventPayload: "{ orderNumber: 10482 }" });
    expect(result.status).toMatch(/^Not sent: externalEventPayload: expected object, as JSON; /);
    expect(await onSandbox("/_sandbox/fired-events")).toEqual([]);
  });

  it("a wrong token shows the 401 with the sandbox's detail", async () => {
    const panel = await openPanel("/conversations/searchconversations", "searchConversations", "not-the-token");
    const result = await send(panel, { pageSize: "1" });
    expect(result.status).toBe("401 Unauthorized (application/json)");
    expect(JSON.parse(result.body)).toMatchObject({ status: 401, detail: "Authorization failed. Check the X-Token header." });
  });

  it("a server the page's policy does not allow is not contacted, and the panel says why", async () => {
    await loadRoute(site, "/conversations/searchconversations");
    const panel = site.page.locator('[data-try-it="searchConversations"]');
    await panel.locator("summary").click();
    await panel.getByLabel("Server", { exact: true }).selectOption({ label: "Another server (type its address)" });
    await panel.getByLabel("Server address").fill("https://api.example.com");
    const result = await send(panel, {});
    expect(result.status).toContain("Not sent: this page's Content-Security-Policy does not allow connecting to https://api.example.com");
    expect(result.curl).toMatch(/^curl 'https:\/\/api\.example\.com\/api\/v2\/channels\/conversations'/);
    expect(site.foreignRequests).toEqual([]);
  });

  it("after typing the token, it is in no storage, cookie, address or request address, and not in the page's text", async () => {
    const panel = await openPanel("/conversations/searchconversations", "searchConversations");
    await send(panel, { pageSize: "1" });
    const places = await site.page.evaluate(() => ({
      localStorage: JSON.stringify({ ...localStorage }),
      sessionStorage: JSON.stringify({ ...sessionStorage }),
      cookie: document.cookie,
      url: location.href,
      historyState: JSON.stringify(history.state),
      text: document.body.innerText,
    }));
    for (const [place, value] of Object.entries(places)) expect(value, place).not.toContain(token);
    // The viewer keeps its layout in a cookie of its own; no cookie holds the token.
    expect((await site.page.context().cookies()).filter((cookie) => decodeURIComponent(cookie.value).includes(token))).toEqual([]);
    expect(site.requests.filter((request) => request.includes(token))).toEqual([]);
    // The field itself holds it, as a password field: that is where it lives.
    expect(await panel.getByLabel("X-Token").getAttribute("type")).toBe("password");
    expect(await panel.getByLabel("X-Token").inputValue()).toBe(token);
  });

  it("logged no console error but the browser's note on the wrong token's 401: the panel is files of the site, within the page's policy", () => {
    expect(site.errors).toEqual(["console: Failed to load resource: the server responded with a status of 401 (Unauthorized)"]);
  });
});
