import type { ExternalEventTrigger } from "@bot-conversation/types";
import { describe, expect, test } from "vitest";
import { example, responseProblems } from "./support/description.ts";
import { exampleBot, exampleFixture } from "./support/fixture.ts";
import { sandboxForTests } from "./support/sandbox.ts";

const sandbox = await sandboxForTests({ fixture: exampleFixture() });
const triggersPath = (agentStageId: string) => `/api/v1/runtime/simple/external/events/${encodeURIComponent(agentStageId)}`;

describe("listExternalEventTriggers", () => {
  test("the bot's triggers, in order, as an array", async () => {
    const response = await sandbox.call(triggersPath(exampleBot));
    expect(await responseProblems("listExternalEventTriggers", response)).toEqual([]);
    expect(await response.json()).toEqual(example<ExternalEventTrigger[]>("ExternalEventTriggerArray"));
  });

  test("a bot without triggers has an empty list", async () => {
    const response = await sandbox.call(triggersPath("bot-without-triggers"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  test.each(["no-such-bot", "with space", "ünïcode"])("an unknown bot %j is a 404 naming it", async (agentStageId) => {
    const response = await sandbox.call(triggersPath(agentStageId));
    expect(await responseProblems("listExternalEventTriggers", response)).toEqual([]);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, detail: `No bot with agentStageId ${JSON.stringify(agentStageId)}.` });
  });
});
