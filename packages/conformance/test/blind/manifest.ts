/**
 * The deviations of the two blind servers (harbor.ts, lantern.ts): each breaks one statement of the seed
 * (/work/shared/seed/bot-conversation-service.md), quoted. Written from the seed alone, before the kit was read.
 * `knownMiss` (set after measuring) says why the kit does not catch a deviation yet; blind-servers.test.ts asserts
 * every other deviation caught.
 */
export interface Deviation {
  /** The id a server takes in `deviations`. */
  id: string;
  /** The seed's sentence it breaks, word for word. */
  quote: string;
  /** What the server then does. */
  does: string;
  /** Why the kit misses it, when it does (not asserted as caught). */
  knownMiss?: string;
  /** Why only the default number of generated examples meets it: the test runs it at the default, not at its smaller matrix. */
  needsDefaultRun?: string;
}

const auth = "A missing or invalid token gives status 401 (stated for operations 2 and 3).";
const everyOperation = "Every operation needs the `X-Token` header (see Authentication).";

/** harbor's deviations. */
export const harborDeviations: Deviation[] = [
  { id: "search-no-token-accepted", quote: everyOperation, does: "a search without X-Token answers 200 with the page" },
  { id: "fire-any-token", quote: auth, does: "a fire with any non-empty X-Token is taken" },
  { id: "triggers-missing-token-403", quote: auth, does: "the trigger list without X-Token answers 403" },
  {
    id: "fire-bearer-accepted",
    quote: "It is the only authorization method listed for all three operations.",
    does: "a fire with Authorization: Bearer <token> and no X-Token is taken",
  },
  { id: "fire-404-before-auth", quote: auth, does: "a fire with a wrong token answers 404 when its trigger or conversation is unknown (lookup before auth)" },
  {
    id: "agent-filter-ignored",
    quote: "| agentStageId | string | Bot identifier. |",
    does: "agentStageId filters nothing: every bot's conversations come back",
  },
  {
    id: "operator-matches-active",
    quote: "| status | string | Conversation status: `Active`, `Closed` or `Operator`. |",
    does: "status=Operator also returns Active conversations",
  },
  {
    id: "channel-status-or",
    quote: "| channelId | string | Channel identifier. |",
    does: "channelId and status given together match either (OR), each alone is right",
  },
  {
    id: "start-from-offset-ignored",
    quote: "| startFromDate | string (ISO 8601) | Start of the period for the conversation start date. |",
    does: "startFromDate's offset is ignored (its wall clock read as UTC): wrong only for non-UTC offsets",
  },
  {
    id: "start-to-ignored",
    quote: "| startToDate | string (ISO 8601) | End of the period for the conversation start date. |",
    does: "startToDate filters nothing",
  },
  {
    id: "latest-from-on-started",
    quote: "| latestMessageFromDate | string (ISO 8601) | Start of the period for the last-message date. |",
    does: "latestMessageFromDate is compared with startedOn",
    needsDefaultRun:
      "harbor writes latestMessageOn without an offset, so only search_model (which weighs the zones such a time may be in) judges the last-message filters, and only its generated searches meet this one",
  },
  {
    id: "latest-to-day-late",
    quote: "| latestMessageToDate | string (ISO 8601) | End of the period for the last-message date. |",
    does: "latestMessageToDate is read one day later",
  },
  {
    id: "channel-with-agent-drops-first",
    quote: "| totalItemCount | integer | Total number of matching conversations. |",
    does: "with channelId and agentStageId together the first matching conversation is left out of items and counts",
  },
  {
    id: "total-ignores-filters",
    quote: "| totalItemCount | integer | Total number of matching conversations. |",
    does: "totalItemCount counts the bot's conversations, ignoring the other filters",
  },
  {
    id: "page-count-exact-multiple",
    quote: "| totalPageCount | integer | Total number of pages. |",
    does: "totalPageCount is one too many when the total is a multiple of the page size",
  },
  { id: "has-more-on-last", quote: "| hasMore | boolean | Whether more pages follow. |", does: "hasMore is true on the last page" },
  {
    id: "to-exclusive-last-page",
    quote: "| toItemExclusive | integer | Index after the last item of the page (exclusive). |",
    does: "on the last page toItemExclusive is fromItemInclusive + pageSize",
  },
  { id: "page-size-echo-default", quote: "| pageSize | integer | Size of the page. |", does: "pageSize always reports 20, whatever size was asked and served" },
  {
    id: "overlap-pages",
    quote: "| fromItemInclusive | integer | Index of the first item of the page (inclusive). |",
    does: "every page after the first starts one item early: a conversation on two pages",
  },
  {
    id: "cap-unreported",
    quote: "| pageSize | integer | Size of the page. |",
    does: "a page size above 10 serves 10 items but reports and counts with the size asked",
  },
  {
    id: "from-equals-page-index",
    quote: "| fromItemInclusive | integer | Index of the first item of the page (inclusive). |",
    does: "fromItemInclusive reports the page index",
  },
  { id: "messages-count-string", quote: "| messagesCount | integer | Number of messages in the conversation. |", does: "messagesCount is a string of digits" },
  {
    id: "outbound-lower-messenger-b",
    quote: "The outbound value is written `Outbound`",
    does: "latestMessageDirection is `outbound` for messenger_b conversations only",
  },
  {
    id: "started-no-offset",
    quote: "| startedOn | string | ISO 8601 date-time with offset; start of the conversation. |",
    does: "startedOn is written without an offset",
  },
  {
    id: "closing-reason-bad-enum",
    quote: "| closingReason | string or null | One of the closing reasons. |",
    does: "closingReason `Timeout` where it is TimedOut",
  },
  { id: "member-role-lower-user", quote: "`role` (`Bot` or `User`)", does: "the user member's role is `user` (summary and export)" },
  { id: "prompter-mode-string", quote: "| options | object | `prompterMode` (boolean)", does: 'channelData.platform.options.prompterMode is "true"/"false"' },
  {
    id: "messages-count-off-vs-export",
    quote: "| messagesCount | integer | Number of messages in the conversation. |",
    does: "messagesCount counts every activity of the history (events too), not the messages",
  },
  {
    id: "latest-text-null-operator",
    quote: "| latestMessageText | string | Text of the last message. |",
    does: "latestMessageText is null for Operator conversations",
  },
  {
    id: "triggers-unknown-bot-200",
    quote: "| List triggers (2) | 404 | No bot with the given agentStageId. |",
    does: "an unknown bot's trigger list is 200 []",
  },
  {
    id: "trigger-parameters-array",
    quote: "| parameters | object | Map from variable code to `{name: string, type: string}`; the variables that can be filled. |",
    does: "parameters is an array of {code, name, type}",
  },
  { id: "fire-204", quote: "- Response 200: event sent; empty body.", does: "a fire answers 204" },
  {
    id: "fire-unknown-conversation-200",
    quote: "Rule: when the trigger with externalEventId is unknown, or no conversation matches conversationId or externalConversationId, the response is 404.",
    does: "a fire naming no existing conversation answers 200",
  },
  { id: "number-accepts-numeric-string", quote: "| Number | number |", does: "a Number variable takes a string of digits" },
  { id: "datetime-refuses-non-utc-offset", quote: "| DateTime | string, ISO 8601 |", does: "a DateTime variable with a non-zero offset is refused (500)" },
  {
    id: "file-accepts-missing-url",
    quote: "| File | object with the file name including extension and a download link (fields `name` and `fileUrl`) |",
    does: "a File without fileUrl is taken",
  },
  {
    id: "validation-400",
    quote: "Rule: when payload values fail validation, the response is 500 with details in the body.",
    does: "a payload failing validation answers 400",
  },
  {
    id: "fire-drops-conversation",
    quote: "Fire an external event into an existing conversation so that it acts as the trigger of a scenario, optionally passing variable values.",
    does: "a fired conversation disappears from the search and the export",
  },
  {
    id: "search-delete-200",
    quote: "- Method and path: `GET /api/v2/channels/conversations`",
    does: "DELETE on the search path answers 200 with a page",
    knownMiss:
      "the seed lists each operation's method and says nothing of others: the kit judges only a 405's Allow and reports other answers as the undocumented_methods finding (faithful-readings.test.ts has a faithful server performing PUT, PATCH and DELETE), so by the kit's own reading of the seed this deviation breaks no sentence; it stays here as a strict reading, not asserted",
  },
  { id: "triggers-text-plain", quote: "- Payloads are JSON.", does: "the trigger list is served as text/plain" },
  {
    id: "export-member-extra",
    quote: "No additional properties are allowed on it or on any of its parts, except on Attachment.",
    does: "the export's members carry `nickname`",
  },
  {
    id: "export-status-disagrees",
    quote: "| status | string | One of the conversation statuses (see States and transitions). |",
    does: "the export of a Closed conversation says Active",
  },
];

/** lantern's deviations. */
export const lanternDeviations: Deviation[] = [
  { id: "triggers-no-token-ok", quote: auth, does: "the trigger list without X-Token answers 200" },
  { id: "search-wrong-token-ok", quote: everyOperation, does: "a search with a wrong X-Token answers 200" },
  { id: "fire-token-case-insensitive-value", quote: auth, does: "a fire takes the token in any letter case (an invalid token)" },
  { id: "fire-no-token-500", quote: auth, does: "a fire without X-Token answers 500" },
  { id: "status-closed-ignored", quote: "| status | string | Conversation status: `Active`, `Closed` or `Operator`. |", does: "status=Closed filters nothing" },
  {
    id: "channel-filter-ignored-for-directline",
    quote: "| channelId | string | Channel identifier. |",
    does: "channelId=directline filters nothing (other channels filter)",
  },
  {
    id: "latest-period-swapped",
    quote: "| latestMessageFromDate | string (ISO 8601) | Start of the period for the last-message date. |",
    does: "latestMessageFromDate is used as the end and latestMessageToDate as the start",
  },
  {
    id: "start-date-offset-sign-flipped",
    quote: "| startFromDate | string (ISO 8601) | Start of the period for the conversation start date. |",
    does: "the start period's offsets are read with the opposite sign: wrong only for non-UTC offsets",
  },
  {
    id: "agent-and-status-drop-last",
    quote: "| totalItemCount | integer | Total number of matching conversations. |",
    does: "with agentStageId and status together the last matching conversation is left out (counts consistent)",
  },
  {
    id: "latest-from-only-with-start",
    quote: "| latestMessageFromDate | string (ISO 8601) | Start of the period for the last-message date. |",
    does: "latestMessageFromDate is ignored when startFromDate is given too",
  },
  { id: "agent-prefix", quote: "| agentStageId | string | Bot identifier. |", does: "agentStageId matches by prefix: lb-1 also finds lb-10's conversations" },
  { id: "total-page-count-floor", quote: "| totalPageCount | integer | Total number of pages. |", does: "totalPageCount rounds down" },
  { id: "page-index-reported-zero-based", quote: "| pageIndex | integer | Index of this page. |", does: "pageIndex reports one less than the page served" },
  {
    id: "last-page-short-by-one",
    quote: "| toItemExclusive | integer | Index after the last item of the page (exclusive). |",
    does: "the last page leaves out its last item; envelope as if it were there",
  },
  { id: "has-more-false-first-page", quote: "| hasMore | boolean | Whether more pages follow. |", does: "hasMore is false on the first page" },
  {
    id: "total-count-page-only",
    quote: "| totalItemCount | integer | Total number of matching conversations. |",
    does: "totalItemCount is the number of items of the page",
  },
  {
    id: "odd-page-size-skip",
    quote: "| fromItemInclusive | integer | Index of the first item of the page (inclusive). |",
    does: "with an odd page size every page after the first skips one conversation (envelope unchanged)",
  },
  {
    id: "to-exclusive-inclusive",
    quote: "| toItemExclusive | integer | Index after the last item of the page (exclusive). |",
    does: "toItemExclusive is the index of the last item",
  },
  {
    id: "default-page-size-not-reported",
    quote: "A response to a request without pageSize reports a page size, so a default exists.",
    does: "without pageSize the envelope's pageSize is null",
  },
  {
    id: "latest-on-unparseable",
    quote: "| latestMessageOn | string | ISO 8601 date-time; time of the last message. |",
    does: "latestMessageOn is `2026/05/10 08:15` for messenger_a conversations",
  },
  { id: "status-lower-closed", quote: "Values are listed capitalized as above.", does: "status is `closed` for Closed conversations" },
  {
    id: "closing-status-bad",
    quote: "| closingStatus | string or null | One of the closing statuses. |",
    does: "closingStatus `Closed` where it is SessionClosed",
  },
  { id: "member-id-number", quote: "Each has `id` (string)", does: "the user member's id is a number in the summary" },
  {
    id: "channel-data-string",
    quote: "| channelData | object or null | Channel data of the conversation (shape in the export model below). |",
    does: "channelData is a JSON string in the summary",
  },
  {
    id: "started-display-shifted",
    quote: "| startedOn | string | ISO 8601 date-time with offset; start of the conversation. |",
    does: "platform conversations show startedOn one hour later than the instant the filters use",
  },
  { id: "latest-direction-bad", quote: "The outbound value is written `Outbound`", does: "latestMessageDirection `OUTBOUND` for Operator conversations" },
  { id: "trigger-name-missing", quote: "| externalEventName | string | Display name of the external event. |", does: "descriptors lack externalEventName" },
  { id: "triggers-404-as-500", quote: "| List triggers (2) | 404 | No bot with the given agentStageId. |", does: "an unknown bot answers 500" },
  { id: "fire-body-json", quote: "- Response 200: event sent; empty body.", does: 'a fire answers 200 with {"status":"sent"}' },
  {
    id: "fire-unknown-trigger-200",
    quote: "Rule: when the trigger with externalEventId is unknown, or no conversation matches conversationId or externalConversationId, the response is 404.",
    does: "a fire with an unknown externalEventId answers 200",
  },
  {
    id: "fire-external-id-ignored",
    quote: "| externalConversationId | string | one of this and conversationId | External conversation identifier. When given, conversationId may be omitted.",
    does: "externalConversationId is not looked up: a fire by it alone answers 404",
  },
  { id: "boolean-accepts-string", quote: "| Boolean | true or false |", does: 'a Boolean variable takes "true"/"false"' },
  { id: "complex-accepts-array", quote: "| ComplexObject | JSON object |", does: "a ComplexObject variable takes an array" },
  { id: "string-refuses-non-ascii", quote: "| String | string |", does: "a String variable with characters outside printable ASCII is refused (500)" },
  { id: "persons-name-accepts-number", quote: "| PersonName | string holding a full name |", does: "a PersonName variable takes a number" },
  { id: "datetime-accepts-garbage", quote: "| DateTime | string, ISO 8601 |", does: "a DateTime variable takes any value" },
  {
    id: "validation-500-empty-body",
    quote: "| Fire event (3) | 500 | Variable values failed validation; the body carries details. |",
    does: "a validation failure answers 500 with an empty body",
  },
  { id: "fire-missing-event-id-200", quote: "| externalEventId | string | yes |", does: "a fire without externalEventId answers 200" },
  {
    id: "search-post-200",
    quote: "- Method and path: `GET /api/v2/channels/conversations`",
    does: "POST on the search path answers 200 with a page",
    knownMiss:
      "the seed lists each operation's method and says nothing of others: the kit judges only a 405's Allow and reports other answers as the undocumented_methods finding (faithful-readings.test.ts has a faithful server performing PUT, PATCH and DELETE), so by the kit's own reading of the seed this deviation breaks no sentence; it stays here as a strict reading, not asserted",
  },
  { id: "search-content-type-html", quote: "- Payloads are JSON.", does: "the search page is served as text/html" },
  {
    id: "export-activity-type-lower",
    quote: "| type | ActivityType | `Message` for messages, `Event` for events. |",
    does: "message activities of the export have type `message`",
  },
  {
    id: "export-trigger-type-bad",
    quote: "| trigger-fired | A trigger fired | `triggerType` (TriggerName), `scenarioId` (string or null) |",
    does: "trigger-fired events carry triggerType `external-trigger`",
  },
  {
    id: "export-members-disagree",
    quote: "| members | array of Member | Participants. |",
    does: "the export leaves the bot out of members (the summary lists it)",
  },
];
