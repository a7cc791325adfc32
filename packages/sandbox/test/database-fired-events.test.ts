import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { openDataFile } from "../src/data/data-file.ts";
import type { FiredEventRecord } from "../src/data/fired-events.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-fired-events-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const conversationId = "0b6e2a4c-7d1f-4e8a-9c3b-5a2d1e0f9b8c";

// A real --data file opened in process: the store's group commit seen from its interface (`data-file-durability.test.ts` and
// `data-file-failures.test.ts` see it over HTTP: SIGKILL during bursts, and a commit that fails).
describe("group commit: the fires of one turn are one transaction, each answered after it (issue 29)", () => {
  const event = (marker: string): FiredEventRecord => ({
    receivedAt: "2026-11-26T10:00:00.000Z",
    sent: { conversationId, externalConversationId: null },
    externalEventId: "order-status-changed",
    externalEventPayload: { orderNumber: marker },
    conversationId,
  });
  const markersOf = (events: readonly FiredEventRecord[]) => events.map((kept) => kept.externalEventPayload!["orderNumber"]);
  const source = { seed: "group-commit", conversations: 5 };
  /** A new --data file opened in process, and a reopening of it after it is closed. */
  const opened = (name: string) => {
    const path = join(scratch, name);
    return { path, ...openDataFile(path, () => source) };
  };
  const reopened = async (path: string) => {
    const again = openDataFile(path, () => ({ seed: "never used", conversations: 1 }));
    try {
      return { source: again.source, markers: markersOf((await again.kept.fired.page({}, 0, 100)).events) };
    } finally {
      again.kept.close();
    }
  };

  test("a page read while fires wait for their commit commits them first and sees them, in order", async () => {
    const { kept } = opened("flush-page.db");
    const waiting = ["a", "b", "c"].map((marker) => kept.fired.record(event(marker)));
    expect(waiting.every((promise) => promise instanceof Promise)).toBe(true);
    expect(markersOf((await kept.fired.page({}, 0, 100)).events)).toEqual(["a", "b", "c"]);
    await Promise.all(waiting);
    expect(markersOf((await kept.fired.page({}, 0, 100)).events)).toEqual(["a", "b", "c"]);
    kept.close();
  });

  test("a turn of many fires (more than one statement writes) is committed whole, numbered in order, and kept", async () => {
    const { path, kept } = opened("many.db");
    await kept.fired.record(event("first"));
    const markers = Array.from({ length: 70 }, (_, index) => `many-${index}`);
    await Promise.all(markers.map((marker) => kept.fired.record(event(marker))));
    const page = await kept.fired.page({}, 1, 40);
    expect(markersOf(page.events)).toEqual(markers.slice(0, 40));
    expect(page.next).toBe(41);
    expect(markersOf((await kept.fired.page({}, 41, 100)).events)).toEqual(markers.slice(40));
    kept.close();
    expect((await reopened(path)).markers).toEqual(["first", ...markers]);
  });

  test("a clear or a reset after fires still waiting keeps their order: the fires are committed, then cleared", async () => {
    const { path, kept } = opened("flush-clear.db");
    const beforeClear = kept.fired.record(event("before-clear"));
    kept.fired.clear();
    await beforeClear;
    const afterClear = kept.fired.record(event("after-clear"));
    await afterClear;
    expect(markersOf((await kept.fired.page({}, 0, 100)).events)).toEqual(["after-clear"]);
    const beforeReset = kept.fired.record(event("before-reset"));
    kept.replaced({ seed: "after-reset", conversations: 2 }, () => undefined);
    await beforeReset;
    expect(markersOf((await kept.fired.page({}, 0, 100)).events)).toEqual([]);
    await kept.fired.record(event("after-reset"));
    kept.close();
    expect(await reopened(path)).toEqual({ source: { seed: "after-reset", conversations: 2 }, markers: ["after-reset"] });
  });

  test("closing the file commits the fires still waiting: they are there on the next start", async () => {
    const { path, kept } = opened("flush-close.db");
    await kept.fired.record(event("committed"));
    const waiting = [kept.fired.record(event("waiting-1")), kept.fired.record(event("waiting-2"))];
    kept.close();
    await Promise.all(waiting);
    expect((await reopened(path)).markers).toEqual(["committed", "waiting-1", "waiting-2"]);
  });
});
