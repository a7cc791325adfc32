import { describe, expectTypeOf, test } from "vitest";
import {
  type ActivityType,
  type activityTypes,
  type ConversationClosingReason,
  type ConversationClosingStatus,
  type ConversationRole,
  type ConversationStatus,
  type conversationClosingReasons,
  type conversationClosingStatuses,
  type conversationRoles,
  conversationStatuses,
  type EventName,
  type eventNames,
  type PrompterModeEventName,
  type prompterModeEventNames,
  type TriggerName,
  type triggerNames,
  type VariableType,
  type variableTypes,
} from "../src/index.js";

// The expected unions are written out from the seed document: they are the oracle the generated
// types are checked against, so a change to the description that drops or adds a value fails here.
describe("each enumeration is the exact union of the seed's values", () => {
  test("ConversationStatus", () => {
    expectTypeOf<ConversationStatus>().toEqualTypeOf<"Active" | "Closed" | "Operator">();
  });
  test("ConversationClosingStatus", () => {
    expectTypeOf<ConversationClosingStatus>().toEqualTypeOf<"NotInitiated" | "Initiated" | "ClosingMessageSent" | "DialogResetEventSent" | "SessionClosed">();
  });
  test("ConversationClosingReason", () => {
    expectTypeOf<ConversationClosingReason>().toEqualTypeOf<"TimedOut" | "ClosedByScenarioAction" | "ClosedByOperator" | "ConversationRestarted">();
  });
  test("ConversationRole", () => {
    expectTypeOf<ConversationRole>().toEqualTypeOf<"Bot" | "User">();
  });
  test("ActivityType", () => {
    expectTypeOf<ActivityType>().toEqualTypeOf<"Message" | "Event">();
  });
  test("TriggerName", () => {
    expectTypeOf<TriggerName>().toEqualTypeOf<
      | "start-trigger"
      | "intent-trigger"
      | "terminal-trigger"
      | "unknown-intent-trigger"
      | "transition-trigger"
      | "menu-button-trigger"
      | "knowledge-base-answer-trigger"
    >();
  });
  test("EventName", () => {
    expectTypeOf<EventName>().toEqualTypeOf<
      | "successfull-service"
      | "custom-event"
      | "scenario-started"
      | "menu-item-selected"
      | "trigger-fired"
      | "error"
      | "promptAccepted"
      | "promptRejected"
      | "CreatePlatformAppElement"
      | "StartProcess"
      | "TransferToOperatorInitiated"
    >();
  });
  test("PrompterModeEventName", () => {
    expectTypeOf<PrompterModeEventName>().toEqualTypeOf<"promptAccepted" | "promptRejected">();
  });
  test("VariableType", () => {
    expectTypeOf<VariableType>().toEqualTypeOf<"String" | "Number" | "Boolean" | "DateTime" | "ComplexObject" | "PersonName" | "File">();
  });
});

// toEqualTypeOf is mutual assignability: every array element is in the union AND every union
// member is an array element type.
describe("each value array is exactly its union, both ways", () => {
  test("conversationStatuses", () => {
    expectTypeOf<(typeof conversationStatuses)[number]>().toEqualTypeOf<ConversationStatus>();
  });
  test("conversationClosingStatuses", () => {
    expectTypeOf<(typeof conversationClosingStatuses)[number]>().toEqualTypeOf<ConversationClosingStatus>();
  });
  test("conversationClosingReasons", () => {
    expectTypeOf<(typeof conversationClosingReasons)[number]>().toEqualTypeOf<ConversationClosingReason>();
  });
  test("conversationRoles", () => {
    expectTypeOf<(typeof conversationRoles)[number]>().toEqualTypeOf<ConversationRole>();
  });
  test("activityTypes", () => {
    expectTypeOf<(typeof activityTypes)[number]>().toEqualTypeOf<ActivityType>();
  });
  test("triggerNames", () => {
    expectTypeOf<(typeof triggerNames)[number]>().toEqualTypeOf<TriggerName>();
  });
  test("eventNames", () => {
    expectTypeOf<(typeof eventNames)[number]>().toEqualTypeOf<EventName>();
  });
  test("prompterModeEventNames", () => {
    expectTypeOf<(typeof prompterModeEventNames)[number]>().toEqualTypeOf<PrompterModeEventName>();
  });
  test("variableTypes", () => {
    expectTypeOf<(typeof variableTypes)[number]>().toEqualTypeOf<VariableType>();
  });
  test("arrays are readonly", () => {
    expectTypeOf(conversationStatuses).toMatchTypeOf<readonly ConversationStatus[]>();
    // @ts-expect-error the arrays are readonly tuples, so they cannot be changed
    conversationStatuses.push("Active");
  });
});
