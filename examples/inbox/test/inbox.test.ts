/**
 * The built inbox in Chromium, served on a free port of 127.0.0.1, on each target: the real HTTP
 * sandbox on another free port, and the sandbox inside the page (MSW, no server). What a person does
 * with it (scroll, filter, fire) and what the sandbox then holds. The HTTP sandbox, with the same
 * default data, is also the oracle of what each list should hold.
 */
import { createBotConversationClient } from "@bot-conversation/client";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import type { ConversationSummary } from "@bot-conversation/types";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type InboxRig, type OpenInbox, startInboxRig, type Target } from "./support/inbox.ts";

vi.setConfig({ testTimeout: heavyTestTimeoutMs });

/** The sandbox's default page size, which the inbox leaves to it. */
const pageSize = 20;
/** The description's example bot: its trigger `order-status-changed` has a variable of every type. */
const exampleBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";
const searchPath = "GET /api/v2/channels/conversations";

let rig: InboxRig;
let inbox: OpenInbox | undefined;
/** The generated bot with the most conversations (the sandbox chooses its data, so it is looked up): several pages of 20. */
let busyBot: string;
let busyCount: number;
beforeAll(async () => {
  rig = await startInboxRig();
  const response = await fetch(`${rig.sandbox.url}/_sandbox/bots`, { headers: { "X-Token": "sandbox-token" } });
  const bots = (await response.json()) as { agentStageId: string; conversations: number }[];
  ({ agentStageId: busyBot, conversations: busyCount } = bots.reduce((busiest, bot) => (bot.conversations > busiest.conversations ? bot : busiest)));
  expect(busyCount).toBeGreaterThan(pageSize * 3);
});
afterAll(() => rig?.close());
afterEach(async () => {
  // No uncaught exception in the page, whatever the test did.
  expect(inbox?.errors).toEqual([]);
  await inbox?.page.close();
  inbox = undefined;
});

/** Every conversation of a search, in order, read by the client from the HTTP sandbox in its default data. */
async function expected(query: { agentStageId: string; status?: "Active" | "Closed" | "Operator" }): Promise<ConversationSummary[]> {
  const client = createBotConversationClient({ baseUrl: rig.sandbox.url, token: "sandbox-token" });
  await fetch(`${rig.sandbox.url}/_sandbox/reset`, { method: "POST", headers: { "X-Token": "sandbox-token", "Content-Type": "application/json" }, body: "{}" });
  const all: ConversationSummary[] = [];
  for await (const conversation of client.iterateConversations(query)) all.push(conversation);
  return all;
}

/** The ids of the rows the list shows, in order. */
const rowIds = (page: Page) => page.locator(".list li").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));

/** Scrolls the list to its end again and again, as a person would, until it says every conversation is loaded. */
async function scrollToEnd(page: Page): Promise<void> {
  const list = page.getByRole("region", { name: "Conversations" });
  const done = page.locator(".done");
  for (let rounds = 0; !(await done.isVisible()); rounds++) {
    if (rounds > 50) throw new Error("the list never said every conversation was loaded");
    const before = (await rowIds(page)).length;
    await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await page.waitForFunction((count) => document.querySelectorAll(".list li").length > count || document.querySelector(".done") !== null, before);
  }
}

/** Opens the inbox on the example bot, chooses its first conversation and the trigger "Order status changed"; returns the conversation's id. */
async function openOrderStatusForm(target: Target): Promise<{ page: Page; conversationId: string }> {
  const [conversation] = await expected({ agentStageId: exampleBot });
  inbox = await target.open(exampleBot);
  await inbox.page.locator(`.list li[data-id="${conversation!.id}"] button`).click();
  await inbox.page.getByRole("button", { name: /Order status changed/ }).click();
  return { page: inbox.page, conversationId: conversation!.id };
}

describe.each([0, 1] as const)("the inbox in Chromium, on target %i (0: the HTTP sandbox, 1: the sandbox inside the page, MSW)", (index) => {
  const target = () => rig.targets[index];

  it("scrolling loads page after page to the end, each conversation once, in the service's order, and then stops", async () => {
    const ids = (await expected({ agentStageId: busyBot })).map((conversation) => conversation.id);
    inbox = await target().open(busyBot);
    const { page, requests } = inbox;
    await expect.poll(() => page.locator(".count").textContent()).toBe(`${busyCount} conversations`);
    await scrollToEnd(page);
    expect(await rowIds(page)).toEqual(ids);
    expect(new Set(ids).size).toBe(busyCount);
    await expect.poll(() => page.locator(".done").textContent()).toBe(`All ${busyCount} conversations loaded.`);
    // One request a page, the first without pageIndex; scrolling again at the end sends nothing.
    await page.getByRole("region", { name: "Conversations" }).evaluate((element) => element.scrollTo(0, element.scrollHeight));
    expect(requests.filter((request) => request.startsWith(searchPath))).toEqual(
      Array.from({ length: Math.ceil(busyCount / pageSize) }, (_, page) => `${searchPath}?agentStageId=${busyBot}${page === 0 ? "" : `&pageIndex=${page}`}`),
    );
  });

  it("changing a filter refetches: the list then holds exactly the matching conversations", async () => {
    const closed = await expected({ agentStageId: busyBot, status: "Closed" });
    expect(closed.length).toBeGreaterThan(0);
    inbox = await target().open(busyBot);
    const { page, requests } = inbox;
    await expect.poll(() => page.locator(".count").textContent()).toBe(`${busyCount} conversations`);
    await page.getByLabel("Status").selectOption("Closed");
    await expect.poll(() => page.locator(".count").textContent()).toBe(`${closed.length} conversations`);
    expect(requests).toContain(`${searchPath}?agentStageId=${busyBot}&status=Closed`);
    await scrollToEnd(page);
    expect(await rowIds(page)).toEqual(closed.map((conversation) => conversation.id));
    expect(new Set(await page.locator(".list .status").allTextContents())).toEqual(new Set(["Closed"]));
  });

  it("typing another bot and pressing Enter shows that bot's conversations", async () => {
    inbox = await target().open(exampleBot);
    const { page, requests } = inbox;
    await expect.poll(() => page.locator(".count").textContent()).toBe("3 conversations");
    await page.getByLabel("Bot (agentStageId)").fill(busyBot);
    await page.getByLabel("Bot (agentStageId)").press("Enter");
    await expect.poll(() => page.locator(".count").textContent()).toBe(`${busyCount} conversations`);
    expect(requests.filter((request) => request.startsWith(searchPath))).toEqual([
      `${searchPath}?agentStageId=${exampleBot}`,
      `${searchPath}?agentStageId=${busyBot}`,
    ]);
  });

  it("a fire with a value for each variable type shows as fired, and the sandbox's journal holds it with each value typed", async () => {
    const { page, conversationId } = await openOrderStatusForm(target());
    await page.getByLabel("Order number (String)").fill("10482");
    await page.getByLabel("Order total (Number)").fill("149.9");
    await page.getByLabel("Paid (Boolean)").selectOption("true");
    await page.getByLabel("Delivery date (DateTime)").fill("2026-11-21T10:00:00");
    await page.getByLabel("Delivery address (ComplexObject)").fill('{"street": "Main St 1", "city": "Springfield"}');
    await page.getByLabel("Courier (PersonName)").fill("Jane Doe");
    await page.getByLabel("Invoice file name").fill("invoice.pdf");
    await page.getByLabel("Invoice download link").fill("https://files.example.com/invoice.pdf");
    await page.getByRole("button", { name: "Fire", exact: true }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toBe(`Fired Order status changed into ${conversationId}.`);
    const deliveryDate = await page.evaluate(() => new Date("2026-11-21T10:00:00").toISOString());
    const fired = (await inbox!.control("GET", "fired-events")) as { conversationId: string; externalEventId: string; externalEventPayload: unknown }[];
    expect(
      fired.map((event) => ({
        conversationId: event.conversationId,
        externalEventId: event.externalEventId,
        externalEventPayload: event.externalEventPayload,
      })),
    ).toEqual([
      {
        conversationId,
        externalEventId: "order-status-changed",
        externalEventPayload: {
          orderNumber: "10482",
          orderTotal: 149.9,
          isPaid: true,
          deliveryDate,
          deliveryAddress: { street: "Main St 1", city: "Springfield" },
          courierName: "Jane Doe",
          invoice: { name: "invoice.pdf", fileUrl: "https://files.example.com/invoice.pdf" },
        },
      },
    ]);
  });

  it("a wrong variable value shows the service's error detail, and nothing is recorded", async () => {
    const { page, conversationId } = await openOrderStatusForm(target());
    // JSON, but a string where the trigger declares a ComplexObject: the service judges it (500).
    await page.getByLabel("Delivery address (ComplexObject)").fill('"nowhere"');
    await page.getByRole("button", { name: "Fire", exact: true }).click();
    // What the HTTP sandbox answers the same request: the same rules on either target.
    const answer = await fetch(`${rig.sandbox.url}/api/v1/runtime/simple/external/events`, {
      method: "POST",
      headers: { "X-Token": "sandbox-token", "Content-Type": "application/json" },
      body: JSON.stringify({ conversationId, externalEventId: "order-status-changed", externalEventPayload: { deliveryAddress: "nowhere" } }),
    });
    const { detail } = (await answer.json()) as { detail: string };
    expect(answer.status).toBe(500);
    expect(detail).toContain("deliveryAddress");
    const alert = page.locator(".fire [role=alert]");
    await expect.poll(() => alert.locator(".service-detail").textContent()).toBe(detail);
    expect(await alert.textContent()).toContain("The service answered 500.");
    expect(await inbox!.control("GET", "fired-events")).toEqual([]);
  });

  it("an injected 503 on the search, past the client's retries, shows a retry state; Retry then loads the list", async () => {
    const closed = await expected({ agentStageId: busyBot, status: "Closed" });
    inbox = await target().open(busyBot);
    const { page, requests } = inbox;
    await expect.poll(() => page.locator(".count").textContent()).toBe(`${busyCount} conversations`);
    // Three 503s: the first attempt and the client's two retries (Retry-After: 0, so without waiting).
    await inbox.control("POST", "faults", { operationId: "searchConversations", status: 503, retryAfter: 0, times: 3 });
    await page.getByLabel("Status").selectOption("Closed");
    const alert = page.getByRole("region", { name: "Conversations" }).getByRole("alert");
    await expect.poll(() => alert.textContent()).toMatch(/^Conversations could not be loaded\. The service answered 503\./);
    expect(requests.filter((request) => request.includes("status=Closed"))).toHaveLength(3);
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect.poll(() => page.locator(".count").textContent()).toBe(`${closed.length} conversations`);
    expect(await alert.count()).toBe(0);
    expect(await rowIds(page)).toEqual(closed.slice(0, pageSize).map((conversation) => conversation.id));
  });

  it("on the empty state, the list says no conversation matches, and asks for no second page", async () => {
    inbox = await target().open(exampleBot, "empty");
    const { page, requests } = inbox;
    await expect.poll(() => page.locator(".done").textContent()).toBe("No conversations match these filters.");
    expect(await page.locator(".count").textContent()).toBe("0 conversations");
    expect(requests.filter((request) => request.startsWith(searchPath))).toEqual([`${searchPath}?agentStageId=${exampleBot}`]);
  });

  it("on the bot-without-triggers state, the conversation's bot shows it has no triggers, and no fire form", async () => {
    inbox = await target().open(exampleBot, "bot-without-triggers");
    const { page } = inbox;
    const [first] = (await inbox.control("GET", "bots")) as { agentStageId: string; externalEventIds: string[] }[];
    expect(first).toMatchObject({ agentStageId: exampleBot, externalEventIds: [] });
    await page.locator(".list li button").first().click();
    await expect.poll(() => page.getByRole("region", { name: "Conversation", exact: true }).textContent()).toContain("This bot has no triggers.");
    expect(await page.locator("form.fire").count()).toBe(0);
  });
});
