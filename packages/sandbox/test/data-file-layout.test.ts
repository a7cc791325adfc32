/** A `--data` file of layout 5 (before workspaces) is given the workspaces' tables at its first start, keeping what it holds (issue 38). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, test } from "vitest";
import { createSandbox } from "../src/index.ts";
import { exampleFixture } from "./support/fixture.ts";
import { adminToken, call, createWorkspace } from "./support/shared.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-layout-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("a file of layout 5 keeps its source and fired events, becomes layout 6, and keeps the workspaces created on it", async () => {
  const path = join(scratch, "layout-5.db");
  const fixture = exampleFixture();
  const conversationId = fixture.conversations[0]!.conversation.id;
  const fire = (target: Parameters<typeof call>[0], token: string, marker: string) =>
    call(target, token, "/api/v1/runtime/simple/external/events", {
      method: "POST",
      json: { conversationId, externalEventId: "order-status-changed", externalEventPayload: { orderNumber: marker } },
    });
  const first = await createSandbox({ data: path, fixture });
  expect((await fire(first, "sandbox-token", "from-layout-5")).status).toBe(200);
  await first.close();
  // The file as a sandbox of layout 5 left it: without the workspaces' tables, its layout version 5.
  const database = new DatabaseSync(path);
  database.exec("DROP TABLE workspace_events; DROP TABLE workspaces; PRAGMA user_version = 5;");
  database.close();

  const second = await createSandbox({ data: path, adminToken });
  let token: string;
  try {
    const events = (await (await call(second, "sandbox-token", "/_sandbox/fired-events")).json()) as { externalEventPayload: { orderNumber: string } }[];
    expect(events.map((event) => event.externalEventPayload.orderNumber)).toEqual(["from-layout-5"]);
    token = await createWorkspace(second, { name: "after-migration", fixture });
    expect((await fire(second, token, "in-workspace")).status).toBe(200);
  } finally {
    await second.close();
  }
  const migrated = new DatabaseSync(path, { readOnly: true });
  expect((migrated.prepare("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(6);
  migrated.close();

  const third = await createSandbox({ data: path, adminToken });
  try {
    const events = (await (await call(third, token, "/_sandbox/fired-events")).json()) as { externalEventPayload: { orderNumber: string } }[];
    expect(events.map((event) => event.externalEventPayload.orderNumber)).toEqual(["in-workspace"]);
  } finally {
    await third.close();
  }
});
