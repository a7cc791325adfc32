import type { ConversationExport, ExternalEventTrigger } from "@bot-conversation/types";
import type { Fixture } from "../../src/index.ts";
import { example } from "./description.ts";

/** The description's own examples as a fixture: its bot, its two triggers, and its full export on the platform channel. */
export const exampleBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";
const exported = example<ConversationExport>("ConversationExportFull");
/** The example conversation's platform session identifier. */
export const exampleSessionId = exported.channelData!.platform.session.id;

/** A second conversation of the same bot on directline, whose last message comes from the user. */
const second: ConversationExport = {
  ...exported,
  id: "second-conversation",
  channelId: "directline",
  channelData: null,
  status: "Closed",
  closingStatus: "SessionClosed",
  closingReason: "TimedOut",
  history: structuredClone(exported.history.filter((activity) => activity.type === "Message").slice(0, 1)),
};

/** A small fixture built from the description's examples. */
export function exampleFixture(): Fixture {
  return structuredClone({
    bots: [
      { agentStageId: exampleBot, triggers: example<ExternalEventTrigger[]>("ExternalEventTriggerArray") },
      { agentStageId: "bot-without-triggers", triggers: [] },
    ],
    conversations: [
      { agentStageId: exampleBot, startedOn: "2026-11-20T09:15:02+03:00", conversation: exported },
      { agentStageId: exampleBot, startedOn: "2026-11-19T10:00:00Z", conversation: second },
    ],
  });
}
