// Generated from rules.yaml by scripts/rules.ts (pnpm --filter @bot-conversation/openapi decisions): do not edit.

/** Every rule the service states, in the seed's order: its id, where the seed states it, and its words. */
export const rules = [
  {
    "id": "payloads-are-json",
    "seed": "What the service does > General conventions",
    "text": "Payloads are JSON. A request with a body sends Content-Type: application/json."
  },
  {
    "id": "dates-iso-8601",
    "seed": "What the service does > General conventions",
    "text": "Dates and times are strings in ISO 8601."
  },
  {
    "id": "token-on-every-operation",
    "seed": "What the service does > General conventions",
    "text": "Every operation needs the X-Token header."
  },
  {
    "id": "summary-id",
    "seed": "Resources > Conversation summary > id",
    "text": "id: string, conversation identifier."
  },
  {
    "id": "summary-channel-id",
    "seed": "Resources > Conversation summary > channelId",
    "text": "channelId: string, channel identifier."
  },
  {
    "id": "summary-status",
    "seed": "Resources > Conversation summary > status",
    "text": "status: string, one of the conversation statuses."
  },
  {
    "id": "summary-messages-count",
    "seed": "Resources > Conversation summary > messagesCount",
    "text": "messagesCount: integer, number of messages in the conversation."
  },
  {
    "id": "summary-members",
    "seed": "Resources > Conversation summary > members",
    "text": "members: array of object, each with id (string), name (string or null), nickname, role (Bot or User)."
  },
  {
    "id": "summary-started-on",
    "seed": "Resources > Conversation summary > startedOn",
    "text": "startedOn: string, ISO 8601 date-time with offset; start of the conversation."
  },
  {
    "id": "summary-channel-data",
    "seed": "Resources > Conversation summary > channelData",
    "text": "channelData: object or null, shaped as in the export model."
  },
  {
    "id": "summary-latest-message-on",
    "seed": "Resources > Conversation summary > latestMessageOn",
    "text": "latestMessageOn: string, ISO 8601 date-time; time of the last message."
  },
  {
    "id": "summary-latest-message-direction",
    "seed": "Resources > Conversation summary > latestMessageDirection",
    "text": "latestMessageDirection: string, inbound or outbound; the outbound value is written Outbound."
  },
  {
    "id": "summary-latest-message-text",
    "seed": "Resources > Conversation summary > latestMessageText",
    "text": "latestMessageText: string, text of the last message."
  },
  {
    "id": "summary-closing-status",
    "seed": "Resources > Conversation summary > closingStatus",
    "text": "closingStatus: string or null, one of the closing statuses."
  },
  {
    "id": "summary-closing-reason",
    "seed": "Resources > Conversation summary > closingReason",
    "text": "closingReason: string or null, one of the closing reasons."
  },
  {
    "id": "page-items",
    "seed": "Resources > Page envelope > items",
    "text": "items: array of conversation summary, the conversations of the page."
  },
  {
    "id": "page-has-more",
    "seed": "Resources > Page envelope > hasMore",
    "text": "hasMore: boolean, whether more pages follow."
  },
  {
    "id": "page-index",
    "seed": "Resources > Page envelope > pageIndex",
    "text": "pageIndex: integer, index of this page."
  },
  {
    "id": "page-size",
    "seed": "Resources > Page envelope > pageSize",
    "text": "pageSize: integer, size of the page."
  },
  {
    "id": "page-total-item-count",
    "seed": "Resources > Page envelope > totalItemCount",
    "text": "totalItemCount: integer, total number of matching conversations."
  },
  {
    "id": "page-total-page-count",
    "seed": "Resources > Page envelope > totalPageCount",
    "text": "totalPageCount: integer, total number of pages."
  },
  {
    "id": "page-from-item",
    "seed": "Resources > Page envelope > fromItemInclusive",
    "text": "fromItemInclusive: integer, index of the first item of the page (inclusive)."
  },
  {
    "id": "page-to-item",
    "seed": "Resources > Page envelope > toItemExclusive",
    "text": "toItemExclusive: integer, index after the last item of the page (exclusive)."
  },
  {
    "id": "enum-conversation-status",
    "seed": "Resources > Enumerations > ConversationStatus",
    "text": "Active, Closed, Operator."
  },
  {
    "id": "enum-closing-status",
    "seed": "Resources > Enumerations > ConversationClosingStatus",
    "text": "NotInitiated, Initiated, ClosingMessageSent, DialogResetEventSent, SessionClosed."
  },
  {
    "id": "enum-closing-reason",
    "seed": "Resources > Enumerations > ConversationClosingReason",
    "text": "TimedOut, ClosedByScenarioAction, ClosedByOperator, ConversationRestarted."
  },
  {
    "id": "enum-role",
    "seed": "Resources > Enumerations > ConversationRole",
    "text": "Bot, User."
  },
  {
    "id": "enum-activity-type",
    "seed": "Resources > Enumerations > ActivityType",
    "text": "Message, Event."
  },
  {
    "id": "enum-channel-identifiers",
    "seed": "Resources > Enumerations > Channel identifier values",
    "text": "directline, two third-party messengers, platform (named for filtering)."
  },
  {
    "id": "enum-trigger-name",
    "seed": "Resources > Enumerations > TriggerName",
    "text": "start-trigger, intent-trigger, terminal-trigger, unknown-intent-trigger, transition-trigger, menu-button-trigger, knowledge-base-answer-trigger."
  },
  {
    "id": "enum-prompter-mode-event-name",
    "seed": "Resources > Enumerations > PrompterModeEventName",
    "text": "promptAccepted, promptRejected."
  },
  {
    "id": "enum-event-name",
    "seed": "Resources > Enumerations > EventName",
    "text": "See Events."
  },
  {
    "id": "export-closed",
    "seed": "Resources > Conversation export model",
    "text": "No additional properties are allowed on it or on any of its parts, except on Attachment."
  },
  {
    "id": "export-id",
    "seed": "Resources > Conversation export model > id",
    "text": "id: string."
  },
  {
    "id": "export-channel-id",
    "seed": "Resources > Conversation export model > channelId",
    "text": "channelId: string."
  },
  {
    "id": "export-status",
    "seed": "Resources > Conversation export model > status",
    "text": "status: ConversationStatus."
  },
  {
    "id": "export-closing-status",
    "seed": "Resources > Conversation export model > closingStatus",
    "text": "closingStatus: ConversationClosingStatus or null."
  },
  {
    "id": "export-closing-reason",
    "seed": "Resources > Conversation export model > closingReason",
    "text": "closingReason: ConversationClosingReason or null."
  },
  {
    "id": "export-channel-data",
    "seed": "Resources > Conversation export model > channelData",
    "text": "channelData: ChannelData or null."
  },
  {
    "id": "export-members",
    "seed": "Resources > Conversation export model > members",
    "text": "members: array of Member."
  },
  {
    "id": "export-history",
    "seed": "Resources > Conversation export model > history",
    "text": "history: array of Activity, each a message activity or one of the event activities."
  },
  {
    "id": "channel-data-platform",
    "seed": "Resources > ChannelData > platform",
    "text": "platform: object with session, client, options."
  },
  {
    "id": "channel-data-original-channel",
    "seed": "Resources > ChannelData > originalChannelId",
    "text": "originalChannelId: string."
  },
  {
    "id": "platform-session",
    "seed": "Resources > Platform channel object > session",
    "text": "session: id (string) and apps (object or null)."
  },
  {
    "id": "platform-client",
    "seed": "Resources > Platform channel object > client",
    "text": "client: app (object or null), externalId (string or null), userName (string or null)."
  },
  {
    "id": "platform-options",
    "seed": "Resources > Platform channel object > options",
    "text": "options: prompterMode (boolean)."
  },
  {
    "id": "member-id",
    "seed": "Resources > Member > id",
    "text": "id: string."
  },
  {
    "id": "member-name",
    "seed": "Resources > Member > name",
    "text": "name: string or null."
  },
  {
    "id": "member-role",
    "seed": "Resources > Member > role",
    "text": "role: ConversationRole."
  },
  {
    "id": "activity-id",
    "seed": "Resources > Base fields of every activity > id",
    "text": "id: string."
  },
  {
    "id": "activity-type",
    "seed": "Resources > Base fields of every activity > type",
    "text": "type: Message for messages, Event for events."
  },
  {
    "id": "activity-timestamp",
    "seed": "Resources > Base fields of every activity > timestamp",
    "text": "timestamp: string or null, ISO 8601 date-time."
  },
  {
    "id": "message-text",
    "seed": "Resources > Message activity > text",
    "text": "text: string."
  },
  {
    "id": "message-from",
    "seed": "Resources > Message activity > from",
    "text": "from: Member."
  },
  {
    "id": "message-recipient",
    "seed": "Resources > Message activity > recipient",
    "text": "recipient: Member."
  },
  {
    "id": "message-buttons",
    "seed": "Resources > Message activity > buttons",
    "text": "buttons: array of Button (title, value, type, isSelected) or null."
  },
  {
    "id": "message-recognized-intents",
    "seed": "Resources > Message activity > recognizedIntents",
    "text": "recognizedIntents: array of Intent (id, name, score) or null."
  },
  {
    "id": "message-knowledge-base-answers",
    "seed": "Resources > Message activity > knowledgeBaseAnswers",
    "text": "knowledgeBaseAnswers: array of KnowledgeBaseAnswer (id, question, answer, score) or null."
  },
  {
    "id": "message-attachments",
    "seed": "Resources > Message activity > attachments",
    "text": "attachments: array of Attachment (contentType, contentUrl, content, name; extra properties allowed) or null."
  },
  {
    "id": "trigger-external-event-id",
    "seed": "Resources > External event trigger descriptor > externalEventId",
    "text": "externalEventId: string."
  },
  {
    "id": "trigger-external-event-name",
    "seed": "Resources > External event trigger descriptor > externalEventName",
    "text": "externalEventName: string."
  },
  {
    "id": "trigger-parameters",
    "seed": "Resources > External event trigger descriptor > parameters",
    "text": "parameters: map from variable code to {name: string, type: string}."
  },
  {
    "id": "variable-string",
    "seed": "Resources > Variable types > String",
    "text": "String: a string."
  },
  {
    "id": "variable-number",
    "seed": "Resources > Variable types > Number",
    "text": "Number: a number."
  },
  {
    "id": "variable-boolean",
    "seed": "Resources > Variable types > Boolean",
    "text": "Boolean: true or false."
  },
  {
    "id": "variable-date-time",
    "seed": "Resources > Variable types > DateTime",
    "text": "DateTime: a string, ISO 8601."
  },
  {
    "id": "variable-complex-object",
    "seed": "Resources > Variable types > ComplexObject",
    "text": "ComplexObject: a JSON object."
  },
  {
    "id": "variable-person-name",
    "seed": "Resources > Variable types > PersonName",
    "text": "PersonName: a string holding a full name."
  },
  {
    "id": "variable-file",
    "seed": "Resources > Variable types > File",
    "text": "File: an object with the file name including extension and a download link (name, fileUrl)."
  },
  {
    "id": "closing-may-be-null",
    "seed": "States and transitions",
    "text": "A closing status and a closing reason may each be null in a conversation."
  },
  {
    "id": "search-agent-stage-id",
    "seed": "Endpoints > 1. Search > agentStageId",
    "text": "agentStageId: string, bot identifier."
  },
  {
    "id": "search-start-from-date",
    "seed": "Endpoints > 1. Search > startFromDate",
    "text": "startFromDate: ISO 8601, start of the period for the conversation start date."
  },
  {
    "id": "search-start-to-date",
    "seed": "Endpoints > 1. Search > startToDate",
    "text": "startToDate: ISO 8601, end of the period for the conversation start date."
  },
  {
    "id": "search-latest-message-from-date",
    "seed": "Endpoints > 1. Search > latestMessageFromDate",
    "text": "latestMessageFromDate: ISO 8601, start of the period for the last-message date."
  },
  {
    "id": "search-latest-message-to-date",
    "seed": "Endpoints > 1. Search > latestMessageToDate",
    "text": "latestMessageToDate: ISO 8601, end of the period for the last-message date."
  },
  {
    "id": "search-status",
    "seed": "Endpoints > 1. Search > status",
    "text": "status: Active, Closed or Operator."
  },
  {
    "id": "search-channel-id",
    "seed": "Endpoints > 1. Search > channelId",
    "text": "channelId: channel identifier."
  },
  {
    "id": "search-page-size",
    "seed": "Endpoints > 1. Search > pageSize",
    "text": "pageSize: integer, page size."
  },
  {
    "id": "search-page-index",
    "seed": "Endpoints > 1. Search > pageIndex",
    "text": "pageIndex: integer, page index."
  },
  {
    "id": "search-parameters-optional",
    "seed": "Endpoints > 1. Search",
    "text": "Parameters are passed in the query string. All are optional."
  },
  {
    "id": "search-response",
    "seed": "Endpoints > 1. Search > Response 200",
    "text": "The page envelope with conversation summaries."
  },
  {
    "id": "triggers-path-parameter",
    "seed": "Endpoints > 2. List triggers",
    "text": "Path parameter agentStageId (string, required), the bot identifier."
  },
  {
    "id": "triggers-response",
    "seed": "Endpoints > 2. List triggers > Response 200",
    "text": "Body shaped as the external event trigger descriptor: the list of all triggers that can be fired for the bot."
  },
  {
    "id": "fire-conversation-id",
    "seed": "Endpoints > 3. Fire > conversationId",
    "text": "conversationId: string, one of this and externalConversationId; bot conversation identifier."
  },
  {
    "id": "fire-external-conversation-id",
    "seed": "Endpoints > 3. Fire > externalConversationId",
    "text": "externalConversationId: string, one of this and conversationId; a platform conversation is <SESSION_ID>|livechat."
  },
  {
    "id": "fire-external-event-id",
    "seed": "Endpoints > 3. Fire > externalEventId",
    "text": "externalEventId: string, required; identifier of the external event."
  },
  {
    "id": "fire-payload",
    "seed": "Endpoints > 3. Fire > externalEventPayload",
    "text": "externalEventPayload: object, not required; map from variable identifier to value, in the formats of the variable types table."
  },
  {
    "id": "fire-into-a-conversation",
    "seed": "What the service does > 3",
    "text": "Fire an external event into an existing conversation so that it acts as the trigger of a scenario, optionally passing variable values."
  },
  {
    "id": "fire-response",
    "seed": "Endpoints > 3. Fire > Response 200",
    "text": "Event sent; empty body."
  },
  {
    "id": "fire-rule-not-found",
    "seed": "Endpoints > 3. Fire > Rule",
    "text": "When the trigger with externalEventId is unknown, or no conversation matches conversationId or externalConversationId, the response is 404."
  },
  {
    "id": "fire-rule-validation",
    "seed": "Endpoints > 3. Fire > Rule",
    "text": "When payload values fail validation, the response is 500 with details in the body."
  },
  {
    "id": "auth-header",
    "seed": "Authentication 1",
    "text": "Every operation requires the header X-Token carrying an access token."
  },
  {
    "id": "auth-only-method",
    "seed": "Authentication 2",
    "text": "It is the only authorization method listed for all three operations."
  },
  {
    "id": "auth-401",
    "seed": "Authentication 3",
    "text": "A missing or invalid token gives status 401 (stated for operations 2 and 3)."
  },
  {
    "id": "event-base",
    "seed": "Events > Event activities",
    "text": "Every event activity has id, type = Event, timestamp (string or null) and eventName."
  },
  {
    "id": "event-successfull-service",
    "seed": "Events > successfull-service",
    "text": "isSuccess (boolean)."
  },
  {
    "id": "event-custom-event",
    "seed": "Events > custom-event",
    "text": "name (string)."
  },
  {
    "id": "event-scenario-started",
    "seed": "Events > scenario-started",
    "text": "scenarioId (string or null), scenarioName (string)."
  },
  {
    "id": "event-menu-item-selected",
    "seed": "Events > menu-item-selected",
    "text": "text (string, name of the transition)."
  },
  {
    "id": "event-trigger-fired",
    "seed": "Events > trigger-fired",
    "text": "triggerType (TriggerName), scenarioId (string or null)."
  },
  {
    "id": "event-error",
    "seed": "Events > error",
    "text": "message (string or null), stackTrace (string or null)."
  },
  {
    "id": "event-prompt-accepted",
    "seed": "Events > promptAccepted",
    "text": "isAccepted (boolean), text (string, hint text)."
  },
  {
    "id": "event-prompt-rejected",
    "seed": "Events > promptRejected",
    "text": "isAccepted (boolean), text (string, hint text)."
  },
  {
    "id": "event-create-platform-app-element",
    "seed": "Events > CreatePlatformAppElement",
    "text": "url, appElementName, appElementId, appElementNamespace, appElementCode (all string or null)."
  },
  {
    "id": "event-start-process",
    "seed": "Events > StartProcess",
    "text": "url, instanceId, processId, instanceName (all string or null)."
  },
  {
    "id": "event-transfer-to-operator",
    "seed": "Events > TransferToOperatorInitiated",
    "text": "None beyond the base fields."
  },
  {
    "id": "errors-triggers-200",
    "seed": "Errors > List triggers 200",
    "text": "Success."
  },
  {
    "id": "errors-triggers-401",
    "seed": "Errors > List triggers 401",
    "text": "Authorization failed; the token must be checked."
  },
  {
    "id": "errors-triggers-404",
    "seed": "Errors > List triggers 404",
    "text": "No bot with the given agentStageId."
  },
  {
    "id": "errors-triggers-500",
    "seed": "Errors > List triggers 500",
    "text": "Internal server error; the body carries details."
  },
  {
    "id": "errors-fire-200",
    "seed": "Errors > Fire event 200",
    "text": "Event sent; empty body."
  },
  {
    "id": "errors-fire-401",
    "seed": "Errors > Fire event 401",
    "text": "Authorization failed; the token must be checked."
  },
  {
    "id": "errors-fire-404",
    "seed": "Errors > Fire event 404",
    "text": "No trigger with the externalEventId, or no conversation with the given conversationId or externalConversationId."
  },
  {
    "id": "errors-fire-500",
    "seed": "Errors > Fire event 500",
    "text": "Variable values failed validation; the body carries details."
  },
  {
    "id": "version-path-segment",
    "seed": "Versioning",
    "text": "The search lives under /api/v2/, the trigger list and external event operations under /api/v1/."
  }
] as const;
