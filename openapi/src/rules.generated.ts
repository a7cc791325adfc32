// Generated from rules.yaml by scripts/rules.ts (pnpm --filter @bot-conversation/openapi decisions): do not edit.

/** The conformance kit's probe families, in the order of rules.yaml: the checks each feeds and what it sends. */
export const probeFamilies = [
  {
    "name": "credential-near-misses",
    "checks": [
      "ignored_auth"
    ],
    "probes": "No X-Token, an empty one, a wrong one, and every way to be almost right: the token cut by its last character, with a character before or after it, in another letter case, with a space inside, doubled, quoted, in a list with a wrong one, behind `Bearer `; on every operation, and on a later page of a filtered search. A lower-case header name is no near miss: HTTP header names ignore case."
  },
  {
    "name": "credential-channels",
    "checks": [
      "ignored_auth"
    ],
    "probes": "The right token on every other channel, without X-Token: the query string (`X-Token`, `token`, `api_key`), `Authorization: Bearer`, `Authorization` bare, a cookie, and other header names (`X-Api-Key`, `X-Auth-Token`, `Token`)."
  },
  {
    "name": "credential-before-lookup",
    "checks": [
      "ignored_auth"
    ],
    "probes": "A wrong token naming an unknown bot, trigger or conversation: the seed's 401 is unconditional, so a 404 (the resource looked up first) fails."
  },
  {
    "name": "bot-id-near-misses",
    "checks": [
      "unknown_bot_not_found"
    ],
    "probes": "The trigger list of the known bot's id cut by its last character, with a character more, with a reserved character appended (`;`, `,`, `*`, an encoded `/`): 404."
  },
  {
    "name": "bot-filter-near-misses",
    "checks": [
      "bot_filter_match"
    ],
    "probes": "A search for the known bot cut by its last character, with a character more, and for an unknown bot: no conversation."
  },
  {
    "name": "identifier-encodings",
    "checks": [
      "identifier_encoding"
    ],
    "probes": "The known bot's id with an unreserved character percent-encoded, in the trigger list's path and the search's query (RFC 3986 §6.2.2.2: the same id), and the conversation's id with a character written as a JSON escape in a fire body (RFC 8259 §7: the same string): answered as the id itself."
  },
  {
    "name": "trigger-id-near-misses",
    "checks": [
      "unknown_trigger_not_found"
    ],
    "probes": "A fire naming an unknown externalEventId, and the known trigger's id cut by its last character or with a character more: 404."
  },
  {
    "name": "conversation-id-near-misses",
    "checks": [
      "unknown_conversation_not_found"
    ],
    "probes": "A fire naming an unknown conversationId or externalConversationId, the known conversationId cut by its last character or with a character more, and a known platform session with another suffix than `|livechat`: 404."
  },
  {
    "name": "variable-near-misses",
    "checks": [
      "payload_validation_rejection"
    ],
    "probes": "Each near miss of each variable type (src/variable-values.ts of the kit) on every variable of every listed trigger, and generated wrong values: the 500 with details."
  },
  {
    "name": "variable-later-position",
    "checks": [
      "payload_validation_rejection"
    ],
    "probes": "For every trigger with several variables, a payload with right values for every variable but one, the wrong value only in a later variable after valid ones: the 500 with details."
  },
  {
    "name": "variable-right-values",
    "checks": [
      "payload_acceptance"
    ],
    "probes": "Generated values of each type's format: 200 with an empty body."
  },
  {
    "name": "payload-optional",
    "checks": [
      "payload_optional"
    ],
    "probes": "A fire without externalEventPayload, and with an empty one: 200 with an empty body."
  },
  {
    "name": "payload-shapes",
    "checks": [
      "payload_shape_rejection"
    ],
    "probes": "An externalEventPayload that is an array, a string or a number: refused."
  },
  {
    "name": "request-invalid-values",
    "checks": [
      "negative_data_rejection"
    ],
    "probes": "Fire bodies missing a required part, with a part of another type or empty: a 4xx (a search with a value the description rules out is sent too, but only reported: the seed shows no search status but success)."
  },
  {
    "name": "request-valid-values",
    "checks": [
      "positive_data_acceptance"
    ],
    "probes": "Generated searches and trigger lists the description allows: accepted."
  },
  {
    "name": "envelope-math",
    "checks": [
      "envelope_math"
    ],
    "probes": "Every 200 search page read: the envelope's counts and indexes add up."
  },
  {
    "name": "paging-walk",
    "checks": [
      "paging_walk"
    ],
    "probes": "A walk of every page: totalItemCount distinct conversations, no duplicates."
  },
  {
    "name": "relations",
    "checks": [
      "metamorphic_relations"
    ],
    "probes": "The requests of every operation in every phase sent again transformed: HEAD as GET, an unreserved character of the query and of the path percent-encoded, Accept with JSON among others, If-None-Match, each with a wrong token once; the unfiltered walk read again at another page size: the answers relate as HTTP and the seed say."
  },
  {
    "name": "search-model",
    "checks": [
      "search_model"
    ],
    "probes": "Generated searches over every filter and combination, periods anywhere around the data, page sizes up to the default and pages up to one past the last, each answer compared with a model of the server's own data (its unfiltered walk): items, counts and every envelope field; a search of a few pages read whole as one set."
  },
  {
    "name": "filter-match",
    "checks": [
      "filter_match"
    ],
    "probes": "Every item of every filtered page matches each filter sent, dates as instants, each filter at its edges (±1 ms of an item, another UTC offset)."
  },
  {
    "name": "filter-inclusion",
    "checks": [
      "filter_inclusion"
    ],
    "probes": "A period of ±1 ms around a conversation's instant finds it."
  },
  {
    "name": "filter-combination",
    "checks": [
      "filter_combination"
    ],
    "probes": "Two filters together find what each finds alone, every page walked."
  },
  {
    "name": "empty-search",
    "checks": [
      "empty_search_page"
    ],
    "probes": "Searches that match nothing (a period after every conversation, a prefix of a channel): 200 with an empty page."
  },
  {
    "name": "response-schema",
    "checks": [
      "response_schema_conformance"
    ],
    "probes": "Every body against the description's schema: each field's type, required fields, the export model closed."
  },
  {
    "name": "spelled-values",
    "checks": [
      "response_schema_conformance"
    ],
    "probes": "Every value the seed spells (statuses, closing statuses and reasons, roles, activity types, event names, trigger names, `Outbound`), spelled exactly in every body."
  },
  {
    "name": "response-bytes",
    "checks": [
      "body_encoding"
    ],
    "probes": "Every body's bytes: strict UTF-8 (RFC 8259 §8.1), no byte order mark, a charset that says utf-8."
  },
  {
    "name": "response-media-type",
    "checks": [
      "content_type_conformance"
    ],
    "probes": "Every body carries a JSON media type the description documents."
  },
  {
    "name": "documented-statuses",
    "checks": [
      "status_code_conformance",
      "not_a_server_error"
    ],
    "probes": "Every status is one the operation documents; no 5xx but the 500s the seed states (the trigger list's internal error, the fire's failed validation), each with details in its body."
  },
  {
    "name": "operation-consistency",
    "checks": [
      "operation_consistency"
    ],
    "probes": "Each operation against another: a search's summary against the conversation's export (--export-path: every field the two share, the members, messagesCount as the messages of the history, the last message's time and text); each listed trigger fired with every variable it lists at a right value; every conversation read before and after the fires (only the one fired into may change); requests answered in turn sent again all at once (the same answers)."
  },
  {
    "name": "fire-success",
    "checks": [
      "payload_acceptance",
      "payload_optional"
    ],
    "probes": "Every fire the service must take: 200 with an empty body."
  }
] as const;

/** Every rule the service states, in the seed's order: where it is stated, its text, and the families that test it. */
export const rules = [
  {
    "id": "payloads-are-json",
    "seed": "What the service does > General conventions",
    "text": "Payloads are JSON. A request with a body sends Content-Type: application/json.",
    "families": [
      "response-media-type",
      "response-bytes"
    ]
  },
  {
    "id": "dates-iso-8601",
    "seed": "What the service does > General conventions",
    "text": "Dates and times are strings in ISO 8601.",
    "families": [
      "response-schema",
      "filter-match"
    ]
  },
  {
    "id": "token-on-every-operation",
    "seed": "What the service does > General conventions",
    "text": "Every operation needs the X-Token header.",
    "families": [
      "credential-near-misses"
    ]
  },
  {
    "id": "summary-id",
    "seed": "Resources > Conversation summary > id",
    "text": "id: string, conversation identifier.",
    "families": [
      "response-schema",
      "paging-walk"
    ]
  },
  {
    "id": "summary-channel-id",
    "seed": "Resources > Conversation summary > channelId",
    "text": "channelId: string, channel identifier.",
    "families": [
      "response-schema",
      "filter-match",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-status",
    "seed": "Resources > Conversation summary > status",
    "text": "status: string, one of the conversation statuses.",
    "families": [
      "spelled-values",
      "filter-match",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-messages-count",
    "seed": "Resources > Conversation summary > messagesCount",
    "text": "messagesCount: integer, number of messages in the conversation.",
    "families": [
      "response-schema",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-members",
    "seed": "Resources > Conversation summary > members",
    "text": "members: array of object, each with id (string), name (string or null), nickname, role (Bot or User).",
    "families": [
      "response-schema",
      "spelled-values",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-started-on",
    "seed": "Resources > Conversation summary > startedOn",
    "text": "startedOn: string, ISO 8601 date-time with offset; start of the conversation.",
    "families": [
      "response-schema",
      "filter-match",
      "filter-inclusion"
    ]
  },
  {
    "id": "summary-channel-data",
    "seed": "Resources > Conversation summary > channelData",
    "text": "channelData: object or null, shaped as in the export model.",
    "families": [
      "response-schema",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-latest-message-on",
    "seed": "Resources > Conversation summary > latestMessageOn",
    "text": "latestMessageOn: string, ISO 8601 date-time; time of the last message.",
    "families": [
      "response-schema",
      "filter-match",
      "filter-inclusion",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-latest-message-direction",
    "seed": "Resources > Conversation summary > latestMessageDirection",
    "text": "latestMessageDirection: string, inbound or outbound; the outbound value is written Outbound.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "summary-latest-message-text",
    "seed": "Resources > Conversation summary > latestMessageText",
    "text": "latestMessageText: string, text of the last message.",
    "families": [
      "response-schema",
      "response-bytes",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-closing-status",
    "seed": "Resources > Conversation summary > closingStatus",
    "text": "closingStatus: string or null, one of the closing statuses.",
    "families": [
      "spelled-values",
      "operation-consistency"
    ]
  },
  {
    "id": "summary-closing-reason",
    "seed": "Resources > Conversation summary > closingReason",
    "text": "closingReason: string or null, one of the closing reasons.",
    "families": [
      "spelled-values",
      "operation-consistency"
    ]
  },
  {
    "id": "page-items",
    "seed": "Resources > Page envelope > items",
    "text": "items: array of conversation summary, the conversations of the page.",
    "families": [
      "response-schema",
      "filter-match",
      "search-model"
    ]
  },
  {
    "id": "page-has-more",
    "seed": "Resources > Page envelope > hasMore",
    "text": "hasMore: boolean, whether more pages follow.",
    "families": [
      "envelope-math",
      "paging-walk",
      "search-model"
    ]
  },
  {
    "id": "page-index",
    "seed": "Resources > Page envelope > pageIndex",
    "text": "pageIndex: integer, index of this page.",
    "families": [
      "envelope-math"
    ]
  },
  {
    "id": "page-size",
    "seed": "Resources > Page envelope > pageSize",
    "text": "pageSize: integer, size of the page.",
    "families": [
      "envelope-math"
    ]
  },
  {
    "id": "page-total-item-count",
    "seed": "Resources > Page envelope > totalItemCount",
    "text": "totalItemCount: integer, total number of matching conversations.",
    "families": [
      "envelope-math",
      "paging-walk",
      "filter-combination",
      "search-model",
      "relations"
    ]
  },
  {
    "id": "page-total-page-count",
    "seed": "Resources > Page envelope > totalPageCount",
    "text": "totalPageCount: integer, total number of pages.",
    "families": [
      "envelope-math",
      "search-model"
    ]
  },
  {
    "id": "page-from-item",
    "seed": "Resources > Page envelope > fromItemInclusive",
    "text": "fromItemInclusive: integer, index of the first item of the page (inclusive).",
    "families": [
      "envelope-math",
      "search-model"
    ]
  },
  {
    "id": "page-to-item",
    "seed": "Resources > Page envelope > toItemExclusive",
    "text": "toItemExclusive: integer, index after the last item of the page (exclusive).",
    "families": [
      "envelope-math",
      "search-model"
    ]
  },
  {
    "id": "enum-conversation-status",
    "seed": "Resources > Enumerations > ConversationStatus",
    "text": "Active, Closed, Operator.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "enum-closing-status",
    "seed": "Resources > Enumerations > ConversationClosingStatus",
    "text": "NotInitiated, Initiated, ClosingMessageSent, DialogResetEventSent, SessionClosed.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "enum-closing-reason",
    "seed": "Resources > Enumerations > ConversationClosingReason",
    "text": "TimedOut, ClosedByScenarioAction, ClosedByOperator, ConversationRestarted.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "enum-role",
    "seed": "Resources > Enumerations > ConversationRole",
    "text": "Bot, User.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "enum-activity-type",
    "seed": "Resources > Enumerations > ActivityType",
    "text": "Message, Event.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "enum-channel-identifiers",
    "seed": "Resources > Enumerations > Channel identifier values",
    "text": "directline, two third-party messengers, platform (named for filtering).",
    "families": [
      "filter-match",
      "empty-search"
    ]
  },
  {
    "id": "enum-trigger-name",
    "seed": "Resources > Enumerations > TriggerName",
    "text": "start-trigger, intent-trigger, terminal-trigger, unknown-intent-trigger, transition-trigger, menu-button-trigger, knowledge-base-answer-trigger.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "enum-prompter-mode-event-name",
    "seed": "Resources > Enumerations > PrompterModeEventName",
    "text": "promptAccepted, promptRejected.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "enum-event-name",
    "seed": "Resources > Enumerations > EventName",
    "text": "See Events.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "export-closed",
    "seed": "Resources > Conversation export model",
    "text": "No additional properties are allowed on it or on any of its parts, except on Attachment.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "export-id",
    "seed": "Resources > Conversation export model > id",
    "text": "id: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "export-channel-id",
    "seed": "Resources > Conversation export model > channelId",
    "text": "channelId: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "export-status",
    "seed": "Resources > Conversation export model > status",
    "text": "status: ConversationStatus.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "export-closing-status",
    "seed": "Resources > Conversation export model > closingStatus",
    "text": "closingStatus: ConversationClosingStatus or null.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "export-closing-reason",
    "seed": "Resources > Conversation export model > closingReason",
    "text": "closingReason: ConversationClosingReason or null.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "export-channel-data",
    "seed": "Resources > Conversation export model > channelData",
    "text": "channelData: ChannelData or null.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "export-members",
    "seed": "Resources > Conversation export model > members",
    "text": "members: array of Member.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "export-history",
    "seed": "Resources > Conversation export model > history",
    "text": "history: array of Activity, each a message activity or one of the event activities.",
    "families": [
      "response-schema",
      "spelled-values"
    ]
  },
  {
    "id": "channel-data-platform",
    "seed": "Resources > ChannelData > platform",
    "text": "platform: object with session, client, options.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "channel-data-original-channel",
    "seed": "Resources > ChannelData > originalChannelId",
    "text": "originalChannelId: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "platform-session",
    "seed": "Resources > Platform channel object > session",
    "text": "session: id (string) and apps (object or null).",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "platform-client",
    "seed": "Resources > Platform channel object > client",
    "text": "client: app (object or null), externalId (string or null), userName (string or null).",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "platform-options",
    "seed": "Resources > Platform channel object > options",
    "text": "options: prompterMode (boolean).",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "member-id",
    "seed": "Resources > Member > id",
    "text": "id: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "member-name",
    "seed": "Resources > Member > name",
    "text": "name: string or null.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "member-role",
    "seed": "Resources > Member > role",
    "text": "role: ConversationRole.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "activity-id",
    "seed": "Resources > Base fields of every activity > id",
    "text": "id: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "activity-type",
    "seed": "Resources > Base fields of every activity > type",
    "text": "type: Message for messages, Event for events.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "activity-timestamp",
    "seed": "Resources > Base fields of every activity > timestamp",
    "text": "timestamp: string or null, ISO 8601 date-time.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "message-text",
    "seed": "Resources > Message activity > text",
    "text": "text: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "message-from",
    "seed": "Resources > Message activity > from",
    "text": "from: Member.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "message-recipient",
    "seed": "Resources > Message activity > recipient",
    "text": "recipient: Member.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "message-buttons",
    "seed": "Resources > Message activity > buttons",
    "text": "buttons: array of Button (title, value, type, isSelected) or null.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "message-recognized-intents",
    "seed": "Resources > Message activity > recognizedIntents",
    "text": "recognizedIntents: array of Intent (id, name, score) or null.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "message-knowledge-base-answers",
    "seed": "Resources > Message activity > knowledgeBaseAnswers",
    "text": "knowledgeBaseAnswers: array of KnowledgeBaseAnswer (id, question, answer, score) or null.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "message-attachments",
    "seed": "Resources > Message activity > attachments",
    "text": "attachments: array of Attachment (contentType, contentUrl, content, name; extra properties allowed) or null.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "trigger-external-event-id",
    "seed": "Resources > External event trigger descriptor > externalEventId",
    "text": "externalEventId: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "trigger-external-event-name",
    "seed": "Resources > External event trigger descriptor > externalEventName",
    "text": "externalEventName: string.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "trigger-parameters",
    "seed": "Resources > External event trigger descriptor > parameters",
    "text": "parameters: map from variable code to {name: string, type: string}.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "variable-string",
    "seed": "Resources > Variable types > String",
    "text": "String: a string.",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "variable-right-values"
    ]
  },
  {
    "id": "variable-number",
    "seed": "Resources > Variable types > Number",
    "text": "Number: a number.",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "variable-right-values"
    ]
  },
  {
    "id": "variable-boolean",
    "seed": "Resources > Variable types > Boolean",
    "text": "Boolean: true or false.",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "variable-right-values"
    ]
  },
  {
    "id": "variable-date-time",
    "seed": "Resources > Variable types > DateTime",
    "text": "DateTime: a string, ISO 8601.",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "variable-right-values"
    ]
  },
  {
    "id": "variable-complex-object",
    "seed": "Resources > Variable types > ComplexObject",
    "text": "ComplexObject: a JSON object.",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "variable-right-values"
    ]
  },
  {
    "id": "variable-person-name",
    "seed": "Resources > Variable types > PersonName",
    "text": "PersonName: a string holding a full name.",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "variable-right-values"
    ]
  },
  {
    "id": "variable-file",
    "seed": "Resources > Variable types > File",
    "text": "File: an object with the file name including extension and a download link (name, fileUrl).",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "variable-right-values"
    ]
  },
  {
    "id": "closing-may-be-null",
    "seed": "States and transitions",
    "text": "A closing status and a closing reason may each be null in a conversation.",
    "families": [
      "response-schema"
    ]
  },
  {
    "id": "search-agent-stage-id",
    "seed": "Endpoints > 1. Search > agentStageId",
    "text": "agentStageId: string, bot identifier.",
    "families": [
      "bot-filter-near-misses",
      "identifier-encodings"
    ]
  },
  {
    "id": "search-start-from-date",
    "seed": "Endpoints > 1. Search > startFromDate",
    "text": "startFromDate: ISO 8601, start of the period for the conversation start date.",
    "families": [
      "filter-match",
      "filter-inclusion",
      "search-model"
    ]
  },
  {
    "id": "search-start-to-date",
    "seed": "Endpoints > 1. Search > startToDate",
    "text": "startToDate: ISO 8601, end of the period for the conversation start date.",
    "families": [
      "filter-match",
      "filter-inclusion",
      "search-model"
    ]
  },
  {
    "id": "search-latest-message-from-date",
    "seed": "Endpoints > 1. Search > latestMessageFromDate",
    "text": "latestMessageFromDate: ISO 8601, start of the period for the last-message date.",
    "families": [
      "filter-match",
      "filter-inclusion",
      "search-model"
    ]
  },
  {
    "id": "search-latest-message-to-date",
    "seed": "Endpoints > 1. Search > latestMessageToDate",
    "text": "latestMessageToDate: ISO 8601, end of the period for the last-message date.",
    "families": [
      "filter-match",
      "filter-inclusion",
      "search-model"
    ]
  },
  {
    "id": "search-status",
    "seed": "Endpoints > 1. Search > status",
    "text": "status: Active, Closed or Operator.",
    "families": [
      "filter-match",
      "filter-combination",
      "search-model"
    ]
  },
  {
    "id": "search-channel-id",
    "seed": "Endpoints > 1. Search > channelId",
    "text": "channelId: channel identifier.",
    "families": [
      "filter-match",
      "filter-combination",
      "empty-search",
      "search-model"
    ]
  },
  {
    "id": "search-page-size",
    "seed": "Endpoints > 1. Search > pageSize",
    "text": "pageSize: integer, page size.",
    "families": [
      "envelope-math",
      "search-model"
    ]
  },
  {
    "id": "search-page-index",
    "seed": "Endpoints > 1. Search > pageIndex",
    "text": "pageIndex: integer, page index.",
    "families": [
      "envelope-math",
      "paging-walk",
      "search-model"
    ]
  },
  {
    "id": "search-parameters-optional",
    "seed": "Endpoints > 1. Search",
    "text": "Parameters are passed in the query string. All are optional.",
    "families": [
      "request-valid-values",
      "relations"
    ]
  },
  {
    "id": "search-response",
    "seed": "Endpoints > 1. Search > Response 200",
    "text": "The page envelope with conversation summaries.",
    "families": [
      "response-schema",
      "empty-search"
    ]
  },
  {
    "id": "triggers-path-parameter",
    "seed": "Endpoints > 2. List triggers",
    "text": "Path parameter agentStageId (string, required), the bot identifier.",
    "families": [
      "bot-id-near-misses",
      "identifier-encodings",
      "request-valid-values"
    ]
  },
  {
    "id": "triggers-response",
    "seed": "Endpoints > 2. List triggers > Response 200",
    "text": "Body shaped as the external event trigger descriptor: the list of all triggers that can be fired for the bot.",
    "families": [
      "response-schema",
      "operation-consistency"
    ]
  },
  {
    "id": "fire-conversation-id",
    "seed": "Endpoints > 3. Fire > conversationId",
    "text": "conversationId: string, one of this and externalConversationId; bot conversation identifier.",
    "families": [
      "conversation-id-near-misses",
      "identifier-encodings",
      "request-invalid-values"
    ]
  },
  {
    "id": "fire-external-conversation-id",
    "seed": "Endpoints > 3. Fire > externalConversationId",
    "text": "externalConversationId: string, one of this and conversationId; a platform conversation is <SESSION_ID>|livechat.",
    "families": [
      "conversation-id-near-misses",
      "request-invalid-values"
    ]
  },
  {
    "id": "fire-external-event-id",
    "seed": "Endpoints > 3. Fire > externalEventId",
    "text": "externalEventId: string, required; identifier of the external event.",
    "families": [
      "trigger-id-near-misses",
      "request-invalid-values"
    ]
  },
  {
    "id": "fire-payload",
    "seed": "Endpoints > 3. Fire > externalEventPayload",
    "text": "externalEventPayload: object, not required; map from variable identifier to value, in the formats of the variable types table.",
    "families": [
      "payload-optional",
      "payload-shapes",
      "variable-right-values"
    ]
  },
  {
    "id": "fire-into-a-conversation",
    "seed": "What the service does > 3",
    "text": "Fire an external event into an existing conversation so that it acts as the trigger of a scenario, optionally passing variable values.",
    "families": [
      "operation-consistency"
    ]
  },
  {
    "id": "fire-response",
    "seed": "Endpoints > 3. Fire > Response 200",
    "text": "Event sent; empty body.",
    "families": [
      "fire-success"
    ]
  },
  {
    "id": "fire-rule-not-found",
    "seed": "Endpoints > 3. Fire > Rule",
    "text": "When the trigger with externalEventId is unknown, or no conversation matches conversationId or externalConversationId, the response is 404.",
    "families": [
      "trigger-id-near-misses",
      "conversation-id-near-misses",
      "operation-consistency"
    ]
  },
  {
    "id": "fire-rule-validation",
    "seed": "Endpoints > 3. Fire > Rule",
    "text": "When payload values fail validation, the response is 500 with details in the body.",
    "families": [
      "variable-near-misses",
      "variable-later-position",
      "operation-consistency"
    ]
  },
  {
    "id": "auth-header",
    "seed": "Authentication 1",
    "text": "Every operation requires the header X-Token carrying an access token.",
    "families": [
      "credential-near-misses"
    ]
  },
  {
    "id": "auth-only-method",
    "seed": "Authentication 2",
    "text": "It is the only authorization method listed for all three operations.",
    "families": [
      "credential-channels"
    ]
  },
  {
    "id": "auth-401",
    "seed": "Authentication 3",
    "text": "A missing or invalid token gives status 401 (stated for operations 2 and 3).",
    "families": [
      "credential-near-misses",
      "credential-before-lookup"
    ]
  },
  {
    "id": "event-base",
    "seed": "Events > Event activities",
    "text": "Every event activity has id, type = Event, timestamp (string or null) and eventName.",
    "families": [
      "response-schema",
      "spelled-values"
    ]
  },
  {
    "id": "event-successfull-service",
    "seed": "Events > successfull-service",
    "text": "isSuccess (boolean).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-custom-event",
    "seed": "Events > custom-event",
    "text": "name (string).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-scenario-started",
    "seed": "Events > scenario-started",
    "text": "scenarioId (string or null), scenarioName (string).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-menu-item-selected",
    "seed": "Events > menu-item-selected",
    "text": "text (string, name of the transition).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-trigger-fired",
    "seed": "Events > trigger-fired",
    "text": "triggerType (TriggerName), scenarioId (string or null).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-error",
    "seed": "Events > error",
    "text": "message (string or null), stackTrace (string or null).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-prompt-accepted",
    "seed": "Events > promptAccepted",
    "text": "isAccepted (boolean), text (string, hint text).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-prompt-rejected",
    "seed": "Events > promptRejected",
    "text": "isAccepted (boolean), text (string, hint text).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-create-platform-app-element",
    "seed": "Events > CreatePlatformAppElement",
    "text": "url, appElementName, appElementId, appElementNamespace, appElementCode (all string or null).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-start-process",
    "seed": "Events > StartProcess",
    "text": "url, instanceId, processId, instanceName (all string or null).",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "event-transfer-to-operator",
    "seed": "Events > TransferToOperatorInitiated",
    "text": "None beyond the base fields.",
    "families": [
      "spelled-values"
    ]
  },
  {
    "id": "errors-triggers-200",
    "seed": "Errors > List triggers 200",
    "text": "Success.",
    "families": [
      "request-valid-values",
      "documented-statuses"
    ]
  },
  {
    "id": "errors-triggers-401",
    "seed": "Errors > List triggers 401",
    "text": "Authorization failed; the token must be checked.",
    "families": [
      "credential-near-misses",
      "credential-channels",
      "credential-before-lookup"
    ]
  },
  {
    "id": "errors-triggers-404",
    "seed": "Errors > List triggers 404",
    "text": "No bot with the given agentStageId.",
    "families": [
      "bot-id-near-misses"
    ]
  },
  {
    "id": "errors-triggers-500",
    "seed": "Errors > List triggers 500",
    "text": "Internal server error; the body carries details.",
    "families": [
      "documented-statuses"
    ]
  },
  {
    "id": "errors-fire-200",
    "seed": "Errors > Fire event 200",
    "text": "Event sent; empty body.",
    "families": [
      "fire-success"
    ]
  },
  {
    "id": "errors-fire-401",
    "seed": "Errors > Fire event 401",
    "text": "Authorization failed; the token must be checked.",
    "families": [
      "credential-near-misses",
      "credential-channels",
      "credential-before-lookup"
    ]
  },
  {
    "id": "errors-fire-404",
    "seed": "Errors > Fire event 404",
    "text": "No trigger with the externalEventId, or no conversation with the given conversationId or externalConversationId.",
    "families": [
      "trigger-id-near-misses",
      "conversation-id-near-misses"
    ]
  },
  {
    "id": "errors-fire-500",
    "seed": "Errors > Fire event 500",
    "text": "Variable values failed validation; the body carries details.",
    "families": [
      "variable-near-misses",
      "variable-later-position"
    ]
  },
  {
    "id": "version-path-segment",
    "seed": "Versioning",
    "text": "The search lives under /api/v2/, the trigger list and external event operations under /api/v1/.",
    "families": [
      "documented-statuses"
    ]
  }
] as const;
