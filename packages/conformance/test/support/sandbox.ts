import { createSandbox, type Fixture, type Sandbox } from "@bot-conversation/sandbox";
import { afterAll, beforeAll } from "vitest";
import { loadDescription } from "../../src/description.ts";

const description = loadDescription();
const example = <T>(name: string): T => (description.resolve(`#/components/examples/${name}`) as { value: T }).value;

type Export = Fixture["conversations"][number]["conversation"];

/**
 * The kit's request time-out in tests: a guard against a hang, sized for a loaded machine (twenty runs
 * side by side on two busy cores), never a bound on speed (the kit's default of 10 s is for a real server).
 */
export const kitRequestTimeoutMs = 120_000;

/** The bot of the fixture: the description's example bot with its example triggers (every variable type). */
export const fixtureBot = "5f0c6d1e-8a4b-4f3e-9c2d-7b1a2e3f4d5c";

/** Number of conversations in the fixture: several pages at the default size. */
export const fixtureSize = 57;

const statuses = ["Active", "Closed", "Operator"] as const;
const channels = ["directline", "platform", "messenger_a", "messenger_b"];
const hour = 3_600_000;

/**
 * A fixture made from the description's examples: the example bot and triggers, and the full export
 * example copied into conversations of every status and channel, an hour apart, the platform ones
 * with session ids `session-<n>`.
 */
export function exampleFixture(): Fixture {
  const base = example<Export>("ConversationExportFull");
  const started = Date.parse(base.history[0]?.timestamp ?? "2026-11-20T09:15:02+03:00");
  const conversations = Array.from({ length: fixtureSize }, (_, index) => {
    const channelId = channels[index % channels.length]!;
    const shift = (timestamp: string | null): string | null => (timestamp === null ? null : new Date(Date.parse(timestamp) - index * hour).toISOString());
    const conversation: Export = {
      ...base,
      id: `conversation-${String(index).padStart(3, "0")}`,
      channelId,
      status: statuses[index % statuses.length]!,
      channelData:
        channelId === "platform" && base.channelData
          ? { ...base.channelData, platform: { ...base.channelData.platform, session: { ...base.channelData.platform.session, id: `session-${index}` } } }
          : null,
      history: base.history.map((activity, position) => {
        const shifted = { ...activity, timestamp: shift(activity.timestamp) };
        // Every other conversation ends with the user's message instead of the bot's: an inbound latest message.
        const last = position === base.history.map((entry) => entry.type).lastIndexOf("Message");
        return last && index % 2 === 1 && shifted.type === "Message" ? { ...shifted, from: shifted.recipient, recipient: shifted.from } : shifted;
      }) as Export["history"],
    };
    return { agentStageId: fixtureBot, startedOn: new Date(started - index * hour).toISOString(), conversation };
  });
  return { bots: [{ agentStageId: fixtureBot, triggers: example("ExternalEventTriggerArray") }], conversations };
}

/** A conversation of the fixture, by identifier; the platform one also by its external identifier. */
export const fixtureConversation = { conversationId: "conversation-001", externalConversationId: "session-1|livechat" };

/** The sandbox's export route (its control API), for the export check. */
export const sandboxExportPath = "/_sandbox/conversations/{conversationId}/export";

/** Creates an in-process sandbox over the example fixture for the calling file, and closes it after. */
export function useSandbox(switches: Parameters<typeof createSandbox>[0] = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await createSandbox({ fixture: exampleFixture(), ...switches });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error("the sandbox is not running");
    return sandbox;
  };
}
