import { describe, expect, it } from "vitest";
import { description, type ExampleObject, resolveIfReference } from "./support/description.js";

type Json = Record<string, unknown>;

/** Every named example of the components, by name. */
const examples = Object.entries(description.components.examples ?? {}).map(([name, example]) => ({
  name,
  value: resolveIfReference<ExampleObject>(example).value,
}));

/** Conversation summaries of the search examples (pages with `items`), each with the example it comes from. */
const summaries = examples.flatMap(({ name, value }) =>
  Array.isArray((value as Json | undefined)?.["items"]) ? (value as { items: Json[] }).items.map((summary) => ({ example: name, summary })) : [],
);

/** Exports among the examples: a conversation with its history. */
const exports = examples
  .filter(({ value }) => Array.isArray((value as Json | undefined)?.["history"]))
  .map(({ name, value }) => ({ name, conversation: value as Json & { history: Json[] } }));

describe("the named examples tell one story", () => {
  it("there are search examples and an export to compare", () => {
    expect(summaries.length).toBeGreaterThan(0);
    expect(exports.length).toBeGreaterThan(0);
  });

  it.each([...new Set(summaries.map(({ summary }) => String(summary["id"])))])("conversation %s has the same summary on every page example", (id) => {
    const same = summaries.filter(({ summary }) => summary["id"] === id);
    for (const { example, summary } of same) expect(summary, example).toEqual(same[0]!.summary);
  });

  it.each(exports.map(({ name, conversation }) => ({ name, conversation, id: String(conversation["id"]) })))(
    "the summaries of $id agree with its export $name: messagesCount counts its Message activities, the latest message is the last one",
    ({ conversation }) => {
      const matching = summaries.filter(({ summary }) => summary["id"] === conversation["id"]);
      expect(matching.length).toBeGreaterThan(0);
      const messages = conversation.history.filter((activity) => activity["type"] === "Message");
      const last = messages.at(-1);
      for (const { example, summary } of matching) {
        expect(
          {
            messagesCount: summary["messagesCount"],
            latestMessageText: summary["latestMessageText"],
            latestMessageOn: summary["latestMessageOn"],
            status: summary["status"],
            channelId: summary["channelId"],
            closingStatus: summary["closingStatus"],
            closingReason: summary["closingReason"],
            channelData: summary["channelData"],
            members: (summary["members"] as Json[]).map(({ id, name, role }) => ({ id, name, role })),
          },
          example,
        ).toEqual({
          messagesCount: messages.length,
          latestMessageText: last?.["text"],
          latestMessageOn: last?.["timestamp"],
          status: conversation["status"],
          channelId: conversation["channelId"],
          closingStatus: conversation["closingStatus"],
          closingReason: conversation["closingReason"],
          channelData: conversation["channelData"],
          members: conversation["members"],
        });
      }
    },
  );
});
