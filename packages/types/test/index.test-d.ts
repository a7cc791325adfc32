import { describe, expectTypeOf, test } from "vitest";
import type {
  Activity,
  Attachment,
  ChannelData,
  ConversationClosingReason,
  ConversationClosingStatus,
  ConversationExport,
  ConversationMember,
  ConversationPage,
  ConversationSummary,
  ErrorEventActivity,
  FireExternalEventRequest,
  Member,
  MessageActivity,
  SearchConversationsQuery,
  TriggerName,
} from "../src/index.js";

declare const activity: Activity;

describe("narrowing an Activity by type, then by eventName, reaches each event's own fields", () => {
  test("Message", () => {
    if (activity.type === "Message") {
      expectTypeOf(activity).toMatchTypeOf<MessageActivity>();
      expectTypeOf(activity.text).toEqualTypeOf<string>();
      expectTypeOf(activity.from).toEqualTypeOf<Member>();
      expectTypeOf(activity.attachments).toEqualTypeOf<Attachment[] | null>();
    }
  });

  test("every event kind", () => {
    if (activity.type !== "Event") return;
    switch (activity.eventName) {
      case "successfull-service":
        expectTypeOf(activity.isSuccess).toEqualTypeOf<boolean>();
        break;
      case "custom-event":
        expectTypeOf(activity.name).toEqualTypeOf<string>();
        break;
      case "scenario-started":
        expectTypeOf(activity.scenarioId).toEqualTypeOf<string | null>();
        expectTypeOf(activity.scenarioName).toEqualTypeOf<string>();
        break;
      case "menu-item-selected":
        expectTypeOf(activity.text).toEqualTypeOf<string>();
        break;
      case "trigger-fired":
        expectTypeOf(activity.triggerType).toEqualTypeOf<TriggerName>();
        expectTypeOf(activity.scenarioId).toEqualTypeOf<string | null>();
        break;
      case "error":
        expectTypeOf(activity).toMatchTypeOf<ErrorEventActivity>();
        expectTypeOf(activity.message).toEqualTypeOf<string | null>();
        expectTypeOf(activity.stackTrace).toEqualTypeOf<string | null>();
        break;
      case "promptAccepted":
      case "promptRejected":
        expectTypeOf(activity.isAccepted).toEqualTypeOf<boolean>();
        expectTypeOf(activity.text).toEqualTypeOf<string>();
        break;
      case "CreatePlatformAppElement":
        expectTypeOf(activity.url).toEqualTypeOf<string | null>();
        expectTypeOf(activity.appElementName).toEqualTypeOf<string | null>();
        expectTypeOf(activity.appElementId).toEqualTypeOf<string | null>();
        expectTypeOf(activity.appElementNamespace).toEqualTypeOf<string | null>();
        expectTypeOf(activity.appElementCode).toEqualTypeOf<string | null>();
        break;
      case "StartProcess":
        expectTypeOf(activity.url).toEqualTypeOf<string | null>();
        expectTypeOf(activity.instanceId).toEqualTypeOf<string | null>();
        expectTypeOf(activity.processId).toEqualTypeOf<string | null>();
        expectTypeOf(activity.instanceName).toEqualTypeOf<string | null>();
        break;
      case "TransferToOperatorInitiated":
        expectTypeOf(activity.timestamp).toEqualTypeOf<string | null>();
        // @ts-expect-error this event has no fields beyond the base ones, so `text` does not exist
        void activity.text;
        break;
      default:
        // Every event name is handled above, so nothing is left here.
        expectTypeOf(activity).toBeNever();
    }
  });

  test("an event's fields are not reachable before narrowing by eventName", () => {
    if (activity.type === "Event") {
      // @ts-expect-error `isSuccess` only exists on the successfull-service event
      void activity.isSuccess;
    }
  });
});

describe("FireExternalEventRequest needs one of the conversation identifiers", () => {
  test("either identifier compiles", () => {
    expectTypeOf({ conversationId: "c", externalEventId: "e" }).toMatchTypeOf<FireExternalEventRequest>();
    expectTypeOf({
      externalConversationId: "s|livechat",
      externalEventId: "e",
      externalEventPayload: { orderNumber: "10482" },
    }).toMatchTypeOf<FireExternalEventRequest>();
  });

  test("neither identifier does not compile", () => {
    // @ts-expect-error a request without conversationId or externalConversationId addresses no conversation
    const request: FireExternalEventRequest = { externalEventId: "order-status-changed" };
    void request;
  });

  test("externalEventId is required", () => {
    // @ts-expect-error the external event to fire must be named
    const request: FireExternalEventRequest = { conversationId: "c" };
    void request;
  });
});

describe("nullable fields are nullable", () => {
  test("conversation summary and export", () => {
    expectTypeOf<ConversationSummary["closingStatus"]>().toEqualTypeOf<ConversationClosingStatus | null>();
    expectTypeOf<ConversationSummary["closingReason"]>().toEqualTypeOf<ConversationClosingReason | null>();
    expectTypeOf<ConversationSummary["channelData"]>().toEqualTypeOf<ChannelData | null>();
    expectTypeOf<ConversationExport["closingStatus"]>().toEqualTypeOf<ConversationClosingStatus | null>();
    expectTypeOf<ConversationExport["channelData"]>().toEqualTypeOf<ChannelData | null>();
  });
  test("members, activities and attachments", () => {
    expectTypeOf<ConversationMember["name"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Member["name"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Activity["timestamp"]>().toEqualTypeOf<string | null>();
    expectTypeOf<MessageActivity["buttons"]>().toMatchTypeOf<unknown[] | null>();
    expectTypeOf<null>().toMatchTypeOf<MessageActivity["recognizedIntents"]>();
    expectTypeOf<null>().toMatchTypeOf<MessageActivity["knowledgeBaseAnswers"]>();
    expectTypeOf<Attachment["contentType"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Attachment["name"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ChannelData["platform"]["client"]["externalId"]>().toEqualTypeOf<string | null>();
  });
  test("required fields are not nullable", () => {
    expectTypeOf<ConversationSummary["id"]>().toEqualTypeOf<string>();
    expectTypeOf<ConversationPage["hasMore"]>().toEqualTypeOf<boolean>();
  });
});

describe("SearchConversationsQuery comes from the operation", () => {
  test("every filter is optional", () => {
    expectTypeOf<Record<never, never>>().toMatchTypeOf<SearchConversationsQuery>();
    expectTypeOf<SearchConversationsQuery["pageIndex"]>().toEqualTypeOf<number | undefined>();
  });
});
