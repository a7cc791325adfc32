import { describe, expect, it } from "vitest";
import { clone, description, type ExampleObject, problemsOf, resolve } from "./support/description.js";

type Json = Record<string, unknown>;
const fullExport = resolve<ExampleObject>("#/components/examples/ConversationExportFull").value as Json & { history: Json[] };

const eventNames = description.components.schemas["EventName"]!["enum"] as string[];
const messageIndex = fullExport.history.findIndex((activity) => activity["type"] === "Message");

/** Walks a path of keys and indexes into the export. */
function at(root: unknown, path: (string | number)[]): Json {
  return path.reduce<unknown>((node, key) => (node as Json)[key as string], root) as Json;
}

describe("conversation export model", () => {
  it("accepts the full example, with every event kind and a message with every part", () => {
    expect(problemsOf("ConversationExport", fullExport)).toEqual([]);
    expect(new Set(fullExport.history.map((activity) => activity["eventName"]).filter(Boolean))).toEqual(new Set(eventNames));
    const message = fullExport.history[messageIndex]!;
    for (const part of ["buttons", "recognizedIntents", "knowledgeBaseAnswers", "attachments"]) {
      expect(message[part], part).toEqual(expect.arrayContaining([expect.any(Object)]));
    }
  });

  const closedParts: [string, (string | number)[]][] = [
    ["the export", []],
    ["channelData", ["channelData"]],
    ["channelData.platform", ["channelData", "platform"]],
    ["platform.session", ["channelData", "platform", "session"]],
    ["platform.client", ["channelData", "platform", "client"]],
    ["platform.options", ["channelData", "platform", "options"]],
    ["a member", ["members", 0]],
    ["a message", ["history", messageIndex]],
    ["a message's from", ["history", messageIndex, "from"]],
    ["a message's recipient", ["history", messageIndex, "recipient"]],
    ["a button", ["history", messageIndex, "buttons", 0]],
    ["an intent", ["history", messageIndex, "recognizedIntents", 0]],
    ["a knowledge-base answer", ["history", messageIndex, "knowledgeBaseAnswers", 0]],
    ...fullExport.history.flatMap((activity, index): [string, (string | number)[]][] =>
      activity["type"] === "Event" ? [[`the ${String(activity["eventName"])} event`, ["history", index]]] : [],
    ),
  ];

  it.each(closedParts)("rejects an additional property on %s", (_part, path) => {
    const changed = clone(fullExport);
    at(changed, path)["unexpectedField"] = "x";
    expect(problemsOf("ConversationExport", changed).join("\n")).toMatch(/must NOT have (additional|unevaluated) properties/);
  });

  it("allows additional properties of any type or null on an attachment, and only there", () => {
    const changed = clone(fullExport);
    Object.assign(at(changed, ["history", messageIndex, "attachments", 0]), { checksum: null, pages: 3, meta: { scanned: true } });
    expect(problemsOf("ConversationExport", changed)).toEqual([]);
  });

  it.each(fullExport.history.map((activity) => [String(activity["eventName"] ?? "Message"), activity] as const))(
    "accepts the %s activity on its own",
    (_name, activity) => {
      expect(problemsOf("Activity", activity)).toEqual([]);
    },
  );

  it.each(fullExport.history.filter((activity) => activity["type"] === "Event").map((event) => [String(event["eventName"]), event] as const))(
    "rejects the %s event under an unknown or another kind's eventName",
    (name, event) => {
      expect(problemsOf("Activity", { ...event, eventName: "scenario-finished" })).not.toEqual([]);
      const other = name === "TransferToOperatorInitiated" ? "error" : "TransferToOperatorInitiated";
      expect(problemsOf("Activity", { ...event, eventName: other })).not.toEqual([]);
    },
  );

  it("rejects a message typed as an event and an event typed as a message", () => {
    const message = fullExport.history[messageIndex]!;
    const event = fullExport.history.find((activity) => activity["eventName"] === "custom-event")!;
    expect(problemsOf("Activity", { ...message, type: "Event" })).not.toEqual([]);
    expect(problemsOf("Activity", { ...event, type: "Message" })).not.toEqual([]);
  });

  it.each([
    ["status", "Archived"],
    ["closingStatus", "Finished"],
    ["closingReason", "UserLeft"],
  ])("rejects %s outside its enumeration", (field, value) => {
    expect(problemsOf("ConversationExport", { ...fullExport, [field]: value })).not.toEqual([]);
  });

  it.each(["closingStatus", "closingReason", "channelData"])("accepts null %s", (field) => {
    expect(problemsOf("ConversationExport", { ...fullExport, [field]: null })).toEqual([]);
  });
});
