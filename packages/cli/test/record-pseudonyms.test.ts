import type { ConversationSummary } from "@bot-conversation/types";
import { describe, expect, it } from "vitest";
import { checkPersonalPointer, pseudonymOf, summaryPseudonymizer } from "../src/record/pseudonyms.ts";
import { realConversations } from "./support/real-service.ts";

const platformConversation = realConversations.find((item) => item.channelData !== null)!;

describe("record: pseudonyms of end users' words and names", () => {
  it("replaces texts, names and the account's user name by keyed hashes, keeps identifiers, and maps equal values to equal pseudonyms", () => {
    const pseudonymize = summaryPseudonymizer("salt-1", []);
    const [first, second] = realConversations.map(pseudonymize) as [ConversationSummary, ConversationSummary];
    expect(first.id).toBe(realConversations[0]!.id);
    expect(first.members.map((member) => member.id)).toEqual(realConversations[0]!.members.map((member) => member.id));
    expect(first.latestMessageText).toBe(pseudonymOf("salt-1", "text", realConversations[0]!.latestMessageText));
    expect(first.latestMessageText).toMatch(/^text-[0-9a-f]{16}$/);
    expect(second.members[0]!.name).toBe(first.members[0]!.name);
    const platform = pseudonymize(platformConversation);
    expect(platform.channelData?.platform.client.userName).toBe(pseudonymOf("salt-1", "name", platformConversation.channelData!.platform.client.userName!));
    expect(platform.channelData?.platform.session.id).toBe(platformConversation.channelData!.platform.session.id);
    expect(platform.channelData?.platform.client.externalId).toBe(platformConversation.channelData!.platform.client.externalId);
    // The input is not changed.
    expect(realConversations[0]!.latestMessageText).toBe("my card ends 4417");
  });

  it("replaces every string at and below a pointer given with --personal, any array index for *, and nothing else", () => {
    const pseudonymize = summaryPseudonymizer("salt-1", ["/channelData/platform/client/externalId", "/members/*/id"]);
    const platform = pseudonymize(platformConversation);
    expect(platform.channelData?.platform.client.externalId).toBe(
      pseudonymOf("salt-1", "value", platformConversation.channelData!.platform.client.externalId!),
    );
    expect(platform.members.map((member) => member.id)).toEqual(platformConversation.members.map((member) => pseudonymOf("salt-1", "value", member.id)));
    expect(platform.id).toBe(platformConversation.id);
    expect(platform.status).toBe(platformConversation.status);
  });

  it("gives other pseudonyms under another salt, and refuses a pointer that is not one", () => {
    expect(pseudonymOf("salt-1", "name", "Maria Gonzalez")).not.toBe(pseudonymOf("salt-2", "name", "Maria Gonzalez"));
    expect(checkPersonalPointer("/members/*/name")).toBe("/members/*/name");
    expect(() => checkPersonalPointer("members.name")).toThrow(
      '--personal: expected a JSON pointer into a conversation summary such as /channelData/platform/client/externalId; got "members.name"',
    );
  });
});
