/**
 * A workspace keeps its last few search pages (`SearchAnswers`, `src/operations/search.ts`), each with the data, the
 * options and the request target it answers: a repeated search answers with the same bytes, and nothing that can
 * change a page (a reset, a fixture, switches, another workspace's data) is ever answered from a page kept.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConversationPage } from "@bot-conversation/types";
import { afterAll, describe, expect, test } from "vitest";
import { createSandbox, type LaunchedSandbox, launchSandbox } from "../src/index.ts";
import { keptPageBytes, keptSearchAnswers } from "../src/operations/search-answers.ts";
import { exampleFixture } from "./support/fixture.ts";
import { json, sandboxForTests, token } from "./support/sandbox.ts";
import { adminToken, call, createWorkspace } from "./support/shared.ts";

const searchPath = "/api/v2/channels/conversations";
const firePath = "/api/v1/runtime/simple/external/events";

const sandbox = await sandboxForTests({ conversations: 40, adminToken });
/** A search's page as the sandbox wrote it (`text`), and read (`page`). */
const pageOf = async (target: string, caller: string = token) => {
  const response = await call(sandbox, caller, target);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, page: JSON.parse(text) as ConversationPage };
};

describe("a workspace's last search pages", () => {
  test("the same search twice: the same bytes", async () => {
    const first = await pageOf(`${searchPath}?pageSize=7&status=Active`);
    expect((await pageOf(`${searchPath}?pageSize=7&status=Active`)).text).toBe(first.text);
  });

  test("a reset: the same search answers the new data (and the old again after a reset back)", async () => {
    const target = `${searchPath}?pageSize=100`;
    expect((await sandbox.call("/_sandbox/reset", json("POST", { seed: "kept-a", conversations: 12 }))).status).toBe(200);
    const a = await pageOf(target);
    expect(a.page.totalItemCount).toBe(12);
    expect((await sandbox.call("/_sandbox/reset", json("POST", { seed: "kept-b", conversations: 9 }))).status).toBe(200);
    const b = await pageOf(target);
    expect(b.page.totalItemCount).toBe(9);
    expect(b.page.items.map((item) => item.id)).not.toEqual(a.page.items.slice(0, 9).map((item) => item.id));
    expect((await sandbox.call("/_sandbox/reset", json("POST", { seed: "kept-a", conversations: 12 }))).status).toBe(200);
    expect((await pageOf(target)).text).toBe(a.text);
  });

  test("a fixture loaded: the same search answers the fixture's conversations", async () => {
    const target = `${searchPath}?pageSize=100`;
    const before = await pageOf(target);
    const fixture = exampleFixture();
    expect((await sandbox.call("/_sandbox/fixture", json("PUT", fixture))).status).toBe(200);
    const after = await pageOf(target);
    expect(after.page.items.map((item) => item.id).sort()).toEqual(fixture.conversations.map((stored) => stored.conversation.id).sort());
    expect(after.text).not.toBe(before.text);
    expect((await sandbox.call("/_sandbox/reset", { method: "POST" })).status).toBe(200);
  });

  test("switches changed: the same search answers by the new switches", async () => {
    const target = `${searchPath}?pageSize=5`;
    const newestFirst = await pageOf(target);
    const switched = await sandbox.call("/_sandbox/switches", json("PUT", { order: "startedOn-asc", defaultPageSize: 3 }));
    expect(switched.status).toBe(200);
    const oldestFirst = await pageOf(target);
    expect(oldestFirst.page.items.map((item) => item.startedOn)).toEqual([...oldestFirst.page.items.map((item) => item.startedOn)].sort());
    expect(oldestFirst.page.items.map((item) => item.id)).not.toEqual(newestFirst.page.items.map((item) => item.id));
    // A search without pageSize reads the new default.
    expect((await pageOf(searchPath)).page.pageSize).toBe(3);
    expect((await sandbox.call("/_sandbox/switches", json("PUT", { order: "startedOn-desc", defaultPageSize: 20 }))).status).toBe(200);
    expect((await pageOf(target)).text).toBe(newestFirst.text);
    expect((await pageOf(searchPath)).page.pageSize).toBe(20);
  });

  test("another workspace: the same search answers its own data, not the default workspace's", async () => {
    const target = `${searchPath}?pageSize=100`;
    const own = await createWorkspace(sandbox, { name: "kept-pages", seed: "another-seed", conversations: 6 });
    const theirs = await pageOf(target, own);
    const ours = await pageOf(target);
    expect(theirs.page.totalItemCount).toBe(6);
    expect(ours.page.totalItemCount).toBe(40);
    expect((await pageOf(target, own)).text).toBe(theirs.text);
  });

  test(`more searches than the ${keptSearchAnswers} kept, each asked twice in turn: every page as a sandbox asked once answers it`, async () => {
    const fresh = await createSandbox({ conversations: 40 });
    try {
      const targets = Array.from({ length: keptSearchAnswers + 3 }, (_, index) => `${searchPath}?pageSize=${index + 1}&pageIndex=1`);
      const expected = new Map<string, string>();
      for (const target of targets) expected.set(target, await (await call(fresh, token, target)).text());
      for (const round of [1, 2])
        for (const target of targets) expect({ round, target, text: (await pageOf(target)).text }).toEqual({ round, target, text: expected.get(target) });
    } finally {
      await fresh.close();
    }
  });

  test(`a page over ${keptPageBytes} bytes is answered whole each time (and not kept)`, async () => {
    const large = await createSandbox({ conversations: 600 });
    try {
      const target = `${searchPath}?pageSize=600`;
      const first = await (await call(large, token, target)).text();
      expect(new TextEncoder().encode(first).byteLength).toBeGreaterThan(keptPageBytes);
      expect((JSON.parse(first) as ConversationPage).items).toHaveLength(600);
      expect(await (await call(large, token, target)).text()).toBe(first);
    } finally {
      await large.close();
    }
  });

  test("a refused search is answered as before, and never kept in place of a page", async () => {
    const refused = await call(sandbox, token, `${searchPath}?pageSize=zero`);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("pageSize");
    expect((await call(sandbox, token, `${searchPath}?pageSize=zero`)).status).toBe(400);
  });

  test("a fire changes no page: the same search after it answers the same bytes, and the fire is recorded", async () => {
    const target = `${searchPath}?pageSize=3`;
    const before = await pageOf(target);
    const [conversation] = before.page.items;
    const bot = conversation!.members.find((member) => member.role === "Bot")!.id;
    const [trigger] = (await (await sandbox.call(`/api/v1/runtime/simple/external/events/${bot}`)).json()) as { externalEventId: string }[];
    expect((await sandbox.call(firePath, json("POST", { conversationId: conversation!.id, externalEventId: trigger!.externalEventId }))).status).toBe(200);
    expect((await pageOf(target)).text).toBe(before.text);
    expect((await sandbox.firedEvents()).map((event) => event.conversationId)).toContain(conversation!.id);
  });
});

describe("with --data, over HTTP", () => {
  const scratch = mkdtempSync(join(tmpdir(), "sandbox-search-answers-"));
  const running: LaunchedSandbox[] = [];
  afterAll(async () => {
    for (const launched of running) await launched.stop("SIGKILL");
    rmSync(scratch, { recursive: true, force: true });
  });

  test("a search after a reset sees the new data, and after a restart the data the file keeps", async () => {
    const data = join(scratch, "data.db");
    let launched = await launchSandbox(["--data", data, "--conversations", "15"]);
    running.push(launched);
    const target = `${searchPath}?pageSize=100`;
    const search = async () => {
      const response = await call(launched.url, token, target);
      expect(response.status).toBe(200);
      return (await response.json()) as ConversationPage;
    };
    expect((await search()).totalItemCount).toBe(15);
    expect((await search()).totalItemCount).toBe(15);
    const reset = await call(launched.url, token, "/_sandbox/reset", { method: "POST", json: { seed: "after-reset", conversations: 4 } });
    expect(reset.status).toBe(200);
    const afterReset = await search();
    expect(afterReset.totalItemCount).toBe(4);
    await launched.stop("SIGTERM");
    launched = await launchSandbox(["--data", data]);
    running.push(launched);
    expect((await search()).items.map((item) => item.id)).toEqual(afterReset.items.map((item) => item.id));
  });
});
