/**
 * A fixture's keys are data (issue 52): a `__proto__` key inside a conversation's `apps` (an object the
 * description leaves open) is an own key as `JSON.parse` reads it, and it stays one through the load, the
 * stores and the export, in every mode: a copy by assignment or `Object.assign` would drop it (or set a
 * prototype), which no store does.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { heavyTestTimeoutMs } from "@bot-conversation/test-support/timeouts";
import { afterAll, describe, expect, test } from "vitest";
import { type CreateSandboxOptions, createSandbox } from "../src/index.ts";
import { exampleBot, exampleFixture } from "./support/fixture.ts";
import { usePostgres } from "./support/shared.ts";

const scratch = mkdtempSync(join(tmpdir(), "sandbox-fixture-keys-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const postgres = usePostgres();

/** The example fixture as JSON text whose first conversation's `apps` holds `__proto__` and `constructor` keys beside an ordinary one. */
const fixtureText = JSON.stringify(exampleFixture()).replace(
  '"apps":null',
  '"apps":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"crm":{"ticket":"T-1"}}',
);
const conversationId = exampleFixture().conversations[0]!.conversation.id;
const fixturePath = join(scratch, "fixture.json");
writeFileSync(fixturePath, fixtureText);

/** The `apps` of the first conversation's export, and of its search summary, as the sandbox answers them. */
async function appsOf(sandbox: { fetch(input: string, init?: RequestInit): Promise<Response> }) {
  const headers = { "x-token": "sandbox-token" };
  const exported = (await (await sandbox.fetch(`http://127.0.0.1/_sandbox/conversations/${conversationId}/export`, { headers })).json()) as {
    channelData: { platform: { session: { apps: Record<string, unknown> } } };
  };
  const page = (await (await sandbox.fetch(`http://127.0.0.1/api/v2/channels/conversations?agentStageId=${exampleBot}`, { headers })).json()) as {
    items: { id: string; channelData: { platform: { session: { apps: Record<string, unknown> } } } | null }[];
  };
  const summary = page.items.find((item) => item.id === conversationId)!;
  return [exported.channelData.platform.session.apps, summary.channelData!.platform.session.apps];
}

const expectedApps = { crm: { ticket: "T-1" } };

describe.each<[string, () => Promise<CreateSandboxOptions>]>([
  ["in memory", async () => ({})],
  ["--data", async () => ({ data: join(scratch, `data-${Math.random().toString(36).slice(2)}.db`) })],
  ["PostgreSQL", async () => ({ databaseUrl: await postgres.database() })],
])("%s", (_mode, optionsOf) => {
  test(
    "a --fixture file's __proto__ and constructor keys in apps are own keys of the export and the search summary, and stay so from a PUT /_sandbox/fixture",
    async () => {
      const options = await optionsOf();
      const sandbox = await createSandbox({ ...options, fixture: fixturePath });
      try {
        for (const apps of await appsOf(sandbox)) {
          expect(Object.keys(apps).sort()).toEqual(["__proto__", "constructor", "crm"]);
          expect(Object.getOwnPropertyDescriptor(apps, "__proto__")?.value).toEqual({ polluted: "yes" });
          expect(Object.getPrototypeOf(apps)).toBe(Object.prototype);
          expect(apps).toMatchObject(expectedApps);
        }
        const put = await sandbox.fetch("http://127.0.0.1/_sandbox/fixture", {
          method: "PUT",
          headers: { "x-token": "sandbox-token", "content-type": "application/json" },
          body: fixtureText,
        });
        expect(put.status).toBe(200);
        for (const apps of await appsOf(sandbox)) expect(Object.keys(apps).sort()).toEqual(["__proto__", "constructor", "crm"]);
      } finally {
        await sandbox.close();
      }
      // Nothing reached the prototype of every object.
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
      if (options.data !== undefined) {
        // Read back from the file by a new sandbox.
        const reopened = await createSandbox({ data: options.data });
        try {
          for (const apps of await appsOf(reopened)) expect(Object.keys(apps).sort()).toEqual(["__proto__", "constructor", "crm"]);
        } finally {
          await reopened.close();
        }
      }
    },
    heavyTestTimeoutMs,
  );
});
