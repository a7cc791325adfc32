import type { ConversationPage, ExternalEventTrigger } from "@bot-conversation/types";
import { describe, expect, test } from "vitest";
import { createSandbox, type SandboxOptions } from "../src/index.ts";
import { example, responseProblems } from "./support/description.ts";
import { exampleBot, exampleFixture, exampleSessionId } from "./support/fixture.ts";
import { json, token } from "./support/sandbox.ts";

/** Runs `work` against a fresh in-process sandbox with the example fixture and the given switches, then closes it. */
async function withSandbox<T>(
  options: Partial<SandboxOptions>,
  work: (call: (path: string, init?: RequestInit) => Promise<Response>) => Promise<T>,
): Promise<T> {
  const sandbox = await createSandbox({ conversations: 30, ...options });
  try {
    return await work((path, init = {}) =>
      sandbox.fetch(`http://sandbox.test${path}`, { ...init, headers: { "x-token": token, "content-type": "application/json", ...init.headers } }),
    );
  } finally {
    await sandbox.close();
  }
}
const page = async (response: Response): Promise<ConversationPage> => {
  expect(await responseProblems("searchConversations", response)).toEqual([]);
  expect(response.status).toBe(200);
  return response.json() as Promise<ConversationPage>;
};
const searchPath = "/api/v2/channels/conversations";

describe("--page-base", () => {
  test("1: the first page is 1, page 2 holds items 10 to 20, and 0 is a 400 naming pageIndex", () =>
    withSandbox({ pageBase: 1 }, async (call) => {
      expect(await page(await call(`${searchPath}?pageSize=10`))).toMatchObject({ pageIndex: 1, fromItemInclusive: 0, toItemExclusive: 10, hasMore: true });
      const all = (await page(await call(`${searchPath}?pageSize=100`))).items;
      const second = await page(await call(`${searchPath}?pageSize=10&pageIndex=2`));
      expect(second).toMatchObject({ pageIndex: 2, fromItemInclusive: 10, toItemExclusive: 20, totalPageCount: 3 });
      expect(second.items).toEqual(all.slice(10, 20));
      expect(await page(await call(`${searchPath}?pageSize=10&pageIndex=3`))).toMatchObject({ hasMore: false, toItemExclusive: 30 });
      const zero = await call(`${searchPath}?pageIndex=0`);
      expect(zero.status).toBe(400);
      expect(await zero.json()).toMatchObject({ errors: [{ path: "query.pageIndex", message: expect.stringContaining("pages count from 1") }] });
    }));

  test("0 (default): pageIndex=1 is the second page", () =>
    withSandbox({}, async (call) => {
      expect(await page(await call(`${searchPath}?pageSize=10&pageIndex=1`))).toMatchObject({ pageIndex: 1, fromItemInclusive: 10 });
    }));
});

test("--default-page-size 5: a search without pageSize reports and uses 5", () =>
  withSandbox({ defaultPageSize: 5 }, async (call) => {
    const first = await page(await call(searchPath));
    expect(first.pageSize).toBe(5);
    expect(first.items).toHaveLength(5);
    expect(first.totalPageCount).toBe(6);
  }));

test("--max-page-size 10: pageSize 10 is served, 11 is a 400 naming pageSize", () =>
  withSandbox({ maxPageSize: 10, defaultPageSize: 10 }, async (call) => {
    expect((await page(await call(`${searchPath}?pageSize=10`))).items).toHaveLength(10);
    const over = await call(`${searchPath}?pageSize=11`);
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ errors: [{ path: "query.pageSize", message: expect.stringContaining("expected an integer from 1 to 10") }] });
  }));

describe("--order", () => {
  const key = { "startedOn-asc": "startedOn", "latestMessageOn-desc": "latestMessageOn" } as const;
  test.each([
    ["startedOn-asc", 1],
    ["latestMessageOn-desc", -1],
  ] as const)("%s sorts by that time", (order, direction) =>
    withSandbox({ order }, async (call) => {
      const items = (await page(await call(`${searchPath}?pageSize=100`))).items;
      const times = items.map((item) => Date.parse(item[key[order]]));
      expect(times).toEqual([...times].sort((a, b) => (a - b) * direction));
    }),
  );
});

describe("--status-case", () => {
  test("insensitive: active finds the Active conversations", () =>
    withSandbox({ statusCase: "insensitive" }, async (call) => {
      const lower = await page(await call(`${searchPath}?status=active&pageSize=100`));
      const exact = await page(await call(`${searchPath}?status=Active&pageSize=100`));
      expect(lower.totalItemCount).toBeGreaterThan(0);
      expect(lower.items).toEqual(exact.items);
      expect((await call(`${searchPath}?status=paused`)).status).toBe(400);
    }));

  test("exact (default): active is a 400 naming status", () =>
    withSandbox({}, async (call) => {
      const response = await call(`${searchPath}?status=active`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ errors: [{ path: "query.status" }] });
    }));
});

describe("--date-to", () => {
  test.each([
    ["inclusive", 1],
    ["exclusive", 0],
  ] as const)("%s: startToDate equal to a start finds it %i times", (dateTo, count) =>
    withSandbox({ dateTo, fixture: exampleFixture() }, async (call) => {
      const found = await page(await call(`${searchPath}?startFromDate=2026-11-20T09:15:02%2B03:00&startToDate=2026-11-20T06:15:02Z`));
      expect(found.totalItemCount).toBe(count);
    }),
  );
});

test("--unknown-parameters ignore: an unlisted parameter is ignored, not refused", () =>
  withSandbox({ unknownParameters: "ignore" }, async (call) => {
    expect((await page(await call(`${searchPath}?sort=id&pageSize=3`))).items).toHaveLength(3);
  }));

test("--trigger-list single: the bot's first trigger as one descriptor", () =>
  withSandbox({ triggerList: "single", fixture: exampleFixture() }, async (call) => {
    const response = await call(`/api/v1/runtime/simple/external/events/${exampleBot}`);
    expect(await response.json()).toEqual(example<ExternalEventTrigger[]>("ExternalEventTriggerArray")[0]);
    expect((await call("/api/v1/runtime/simple/external/events/bot-without-triggers")).status).toBe(404);
  }));

describe("--identifier-wins", () => {
  const both = { conversationId: "second-conversation", externalConversationId: `${exampleSessionId}|livechat`, externalEventId: "callback-requested" };
  test.each([
    ["conversationId", "second-conversation"],
    ["externalConversationId", "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c"],
  ] as const)("%s: both sent, the event goes to %s", (identifierWins, resolved) =>
    withSandbox({ identifierWins, fixture: exampleFixture() }, async (call) => {
      expect((await call("/api/v1/runtime/simple/external/events", json("POST", both))).status).toBe(200);
      expect(await (await call("/_sandbox/fired-events")).json()).toMatchObject([
        { conversationId: resolved, sent: { conversationId: both.conversationId, externalConversationId: both.externalConversationId } },
      ]);
    }),
  );

  test("the losing identifier is not looked up: an unknown one does not make a 404", () =>
    withSandbox({ identifierWins: "conversationId", fixture: exampleFixture() }, async (call) => {
      const response = await call("/api/v1/runtime/simple/external/events", json("POST", { ...both, externalConversationId: "nobody|livechat" }));
      expect(response.status).toBe(200);
    }));
});

test("--inbound-direction: the spelling used when the last message comes from the user", () =>
  withSandbox({ inboundDirection: "Incoming", fixture: exampleFixture() }, async (call) => {
    const items = (await page(await call(searchPath))).items;
    // The example export ends with the bot's message; the second conversation's only message is the user's.
    expect(items.map((item) => [item.id, item.latestMessageDirection])).toEqual([
      ["0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c", "Outbound"],
      ["second-conversation", "Incoming"],
    ]);
  }));

test("--error-media-type application/problem+json: errors carry that content type", () =>
  withSandbox({ errorMediaType: "application/problem+json" }, async (call) => {
    const response = await call(`${searchPath}?pageSize=0`);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ type: "about:blank", title: "Bad Request", status: 400 });
  }));

test.each([
  [{ pageBase: 2 }, /--page-base: expected one of 0, 1; got "2"/],
  [{ defaultPageSize: 0 }, /--default-page-size: expected a positive integer; got "0"/],
  [{ triggerList: "list" }, /--trigger-list: expected one of array, single; got "list"/],
  [{ pageBase: "1" }, /pageBase: expected one of 0, 1; got "1"/],
])("a bad switch %j is refused with a message naming it", async (options, message) => {
  await expect(createSandbox(options as Partial<SandboxOptions>)).rejects.toThrow(message);
});
