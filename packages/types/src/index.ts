/**
 * Types of the Bot Conversation Service, derived from the generated declarations of its OpenAPI
 * description (`./generated/schema.ts`), under the names the service uses.
 */
import type { components, operations } from "./generated/schema.js";

export { parseDateTime } from "./generated/date-time.js";
export * from "./generated/enums.js";
export type { components, operations, paths } from "./generated/schema.js";

type Schemas = components["schemas"];

/** One conversation in a search result. */
export type ConversationSummary = Schemas["ConversationSummary"];
/** One page of conversations matching a search. */
export type ConversationPage = Schemas["ConversationPage"];
/** A participant of a conversation, as listed in a search result. */
export type ConversationMember = Schemas["ConversationMember"];
/** Export of one conversation: the conversation with its members and its history. */
export type ConversationExport = Schemas["ConversationExport"];
/** A participant of an exported conversation. */
export type Member = Schemas["Member"];
/** One entry of a conversation history: a message or an event; narrow by `type`, then `eventName`. */
export type Activity = Schemas["Activity"];
/** A message in the conversation history. */
export type MessageActivity = Schemas["MessageActivity"];
/** An event in the conversation history, told apart by `eventName`. */
export type EventActivity = Schemas["EventActivity"];
/** Event `successfull-service` (the service's spelling): successful service, for analytics. */
export type SuccessfullServiceEventActivity = Schemas["SuccessfullServiceEventActivity"];
/** Event `custom-event`: a custom analytics event. */
export type CustomEventActivity = Schemas["CustomEventActivity"];
/** Event `scenario-started`: a scenario started. */
export type ScenarioStartedEventActivity = Schemas["ScenarioStartedEventActivity"];
/** Event `menu-item-selected`: a menu button was chosen. */
export type MenuItemSelectedEventActivity = Schemas["MenuItemSelectedEventActivity"];
/** Event `trigger-fired`: a trigger fired. */
export type TriggerFiredEventActivity = Schemas["TriggerFiredEventActivity"];
/** Event `error`: an error occurred. */
export type ErrorEventActivity = Schemas["ErrorEventActivity"];
/** Event `promptAccepted`: in prompter mode, the operator accepted the hint. */
export type PromptAcceptedEventActivity = Schemas["PromptAcceptedEventActivity"];
/** Event `promptRejected`: in prompter mode, the operator rejected the hint. */
export type PromptRejectedEventActivity = Schemas["PromptRejectedEventActivity"];
/** Event `CreatePlatformAppElement`: an application element was created in the platform. */
export type CreatePlatformAppElementEventActivity = Schemas["CreatePlatformAppElementEventActivity"];
/** Event `StartProcess`: a platform process was started. */
export type StartProcessEventActivity = Schemas["StartProcessEventActivity"];
/** Event `TransferToOperatorInitiated`: the conversation was handed to an operator. */
export type TransferToOperatorInitiatedEventActivity = Schemas["TransferToOperatorInitiatedEventActivity"];
/** A button or menu item in a message. */
export type Button = Schemas["Button"];
/** An intent recognized in a message. */
export type Intent = Schemas["Intent"];
/** An answer found in the knowledge base. */
export type KnowledgeBaseAnswer = Schemas["KnowledgeBaseAnswer"];
/** An attachment of a message (the only part of the export that allows extra properties). */
export type Attachment = Schemas["Attachment"];
/** Channel data of a conversation. */
export type ChannelData = Schemas["ChannelData"];
/** An external event trigger that can be fired for a bot, with the variables it accepts. */
export type ExternalEventTrigger = Schemas["ExternalEventTrigger"];
/** A variable that an external event trigger accepts: its display name and type. */
export type ExternalEventTriggerParameter = Schemas["ExternalEventTriggerParameter"];
/** Map from variable code to value, sent in `externalEventPayload`. */
export type ExternalEventPayload = Schemas["ExternalEventPayload"];
/** Value of a `File` variable: `{ name, fileUrl }`. */
export type FileVariableValue = Schemas["FileVariableValue"];
/** Request to fire an external event; needs `conversationId` or `externalConversationId`. */
export type FireExternalEventRequest = Schemas["FireExternalEventRequest"];
/** Error body; the service gives no layout, so any JSON value. */
export type ErrorDetails = Schemas["ErrorDetails"];
/** Query parameters of a conversation search; all optional. */
export type SearchConversationsQuery = NonNullable<operations["searchConversations"]["parameters"]["query"]>;

/** Status of a conversation. */
export type ConversationStatus = Schemas["ConversationStatus"];
/** Stage of closing a conversation. */
export type ConversationClosingStatus = Schemas["ConversationClosingStatus"];
/** Why a conversation was closed. */
export type ConversationClosingReason = Schemas["ConversationClosingReason"];
/** Role of a participant in a conversation. */
export type ConversationRole = Schemas["ConversationRole"];
/** Kind of an activity: `Message` or `Event`. */
export type ActivityType = Schemas["ActivityType"];
/** Kind of trigger that fired, carried by the `trigger-fired` event. */
export type TriggerName = Schemas["TriggerName"];
/** Name of an event activity. */
export type EventName = Schemas["EventName"];
/** Names of the events recorded in prompter mode. */
export type PrompterModeEventName = Schemas["PrompterModeEventName"];
/** Type of a variable an external event trigger accepts. */
export type VariableType = Schemas["VariableType"];
