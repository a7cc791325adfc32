/**
 * This file was generated from the bundled OpenAPI description by scripts/generate-enums.ts.
 * Do not make direct changes to the file.
 */

import type { components } from "./schema.js";

/** Every value of `ActivityType`, in the order of the description. */
export const activityTypes = ["Message", "Event"] as const satisfies readonly components["schemas"]["ActivityType"][];

/** Every value of `ConversationClosingReason`, in the order of the description. */
export const conversationClosingReasons = ["TimedOut", "ClosedByScenarioAction", "ClosedByOperator", "ConversationRestarted"] as const satisfies readonly components["schemas"]["ConversationClosingReason"][];

/** Every value of `ConversationClosingStatus`, in the order of the description. */
export const conversationClosingStatuses = ["NotInitiated", "Initiated", "ClosingMessageSent", "DialogResetEventSent", "SessionClosed"] as const satisfies readonly components["schemas"]["ConversationClosingStatus"][];

/** Every value of `ConversationRole`, in the order of the description. */
export const conversationRoles = ["Bot", "User"] as const satisfies readonly components["schemas"]["ConversationRole"][];

/** Every value of `ConversationStatus`, in the order of the description. */
export const conversationStatuses = ["Active", "Closed", "Operator"] as const satisfies readonly components["schemas"]["ConversationStatus"][];

/** Every value of `EventName`, in the order of the description. */
export const eventNames = ["successfull-service", "custom-event", "scenario-started", "menu-item-selected", "trigger-fired", "error", "promptAccepted", "promptRejected", "CreatePlatformAppElement", "StartProcess", "TransferToOperatorInitiated"] as const satisfies readonly components["schemas"]["EventName"][];

/** Every value of `PrompterModeEventName`, in the order of the description. */
export const prompterModeEventNames = ["promptAccepted", "promptRejected"] as const satisfies readonly components["schemas"]["PrompterModeEventName"][];

/** Every value of `TriggerName`, in the order of the description. */
export const triggerNames = ["start-trigger", "intent-trigger", "terminal-trigger", "unknown-intent-trigger", "transition-trigger", "menu-button-trigger", "knowledge-base-answer-trigger"] as const satisfies readonly components["schemas"]["TriggerName"][];

/** Every value of `VariableType`, in the order of the description. */
export const variableTypes = ["String", "Number", "Boolean", "DateTime", "ComplexObject", "PersonName", "File"] as const satisfies readonly components["schemas"]["VariableType"][];
