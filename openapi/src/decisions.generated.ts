// Generated from decisions.yaml by scripts/decisions.ts (pnpm --filter @bot-conversation/openapi decisions): do not edit.

/** Every open point and what the toolkit decides, in the order of decisions.yaml. */
export const decisions = [
  {
    "id": "base-address",
    "label": "Base address",
    "service": "`{base_url}`, no value",
    "decision": "Two servers: first the local mock `http://127.0.0.1:4010`, then `{base_url}` (default the same) with its explanation in the server's `description`",
    "why": "No real host is known. Generators take the first server as their default base URL (hey-api had none with `{base_url}` alone), so generated clients and the reference's samples work against `pnpm start`; a deployment sets its own. The text sits in `servers[].description`, not the variable's, because swagger-parser rejects a variable `description` (swagger-cli issue 83)."
  },
  {
    "id": "channel-identifiers",
    "label": "Channel identifiers",
    "service": "`directline`, `platform`, and two third-party messengers written as `messenger_a`, `messenger_b`",
    "decision": "`ChannelId` is an open string; `directline` and `platform` are documented as examples",
    "why": "The real messenger names are not given; a closed enum would invent them."
  },
  {
    "id": "inbound-direction",
    "label": "Inbound direction spelling",
    "service": "Outbound is `Outbound`; inbound \"not shown\"",
    "decision": "`MessageDirection` is an open string with the example `Outbound`",
    "why": "Inventing `Inbound` would be a guess.",
    "sandbox": {
      "flag": "inbound-direction",
      "values": "text",
      "default": "Inbound",
      "note": " (any text)"
    },
    "findings": [
      "inbound_direction_spelling"
    ]
  },
  {
    "id": "nickname-type",
    "label": "`nickname` type",
    "service": "null, other type \"not shown\"",
    "decision": "No type: any JSON value (`unknown` in every generator)",
    "why": "Only `null` is known.",
    "sandbox": {
      "text": "Always `null`, the only value shown"
    },
    "findings": [
      "nickname_types"
    ]
  },
  {
    "id": "platform-app-content",
    "label": "Content of `session.apps`, `client.app`",
    "service": "object or null, content \"not shown\"",
    "decision": "`type: [object, \"null\"]` with `additionalProperties: true`, so generators type them as open objects",
    "why": "The export forbids extra properties on its parts, but the content of these objects is not described, so closing them would reject every real value."
  },
  {
    "id": "button-type-values",
    "label": "Button `type` values",
    "service": "\"button type\", no list",
    "decision": "Open string",
    "why": "No values given."
  },
  {
    "id": "variable-types",
    "label": "Variable types",
    "service": "The table lists `String`, `Number`, `Boolean`, `DateTime`, `ComplexObject`, `PersonName`, `File`",
    "decision": "`VariableType` is that closed list, and the trigger parameter's `type` uses it",
    "why": "The table is the service's full list of variable types and formats, and clients need it to check payloads."
  },
  {
    "id": "variable-value-formats",
    "label": "Variable value formats",
    "service": "By type, File is `{name, fileUrl}`",
    "decision": "`ExternalEventVariableValue` is an `anyOf` of string, number, boolean and open object (see Score); `FileVariableValue` is its own model; the per-type check is `validateEventPayload` in the client; the conformance kit generates right values across each type's whole space but leaves out U+0000 (a NUL in a value, which stores such as PostgreSQL's `text` cannot keep and the sandbox refuses with a 400, is not demanded of any server) (the kit's choice)",
    "why": "The format depends on the trigger, which the request schema cannot see."
  },
  {
    "id": "dates",
    "label": "Dates (filters, `DateTime` variables)",
    "service": "\"ISO 8601\" strings",
    "decision": "`format: date-time` (RFC 3339: date, time with seconds, UTC offset); the client's `parseDateTime` and the sandbox read every date by that one rule, refusing a date alone, an offset-less time, an hour-only offset, second 60, hour 24 and a day the month lacks",
    "why": "ISO 8601 also allows forms that name no single instant (a date, a local time); the service's own reading is not shown, so the toolkit picks the interoperable profile and says so. The conformance kit judges and generates every date by `parseDateTime` too (its `date-time` format is that function), and sends a date alone and a time without an offset as filter values once, reporting the answer (`date_filter_forms`), never failing it; likewise it fails a `DateTime` variable value only where the seed's words rule it out (not a string, or no form of ISO 8601), and fires a time without an offset, a date alone, ISO 8601's basic format and RFC 3339's space for `T` once each with `--allow-fire`, reporting the answers (`date_time_variable_forms`) (the kit's choice).",
    "findings": [
      "date_filter_forms",
      "date_time_variable_forms"
    ]
  },
  {
    "id": "date-time-offsets",
    "label": "Offsets of `latestMessageOn` and an activity's `timestamp`",
    "service": "\"ISO 8601 date-time\"; \"with offset\" only for `startedOn`",
    "decision": "No `format: date-time`: a pattern for ISO 8601's extended date and time (`T` between them, seconds, fraction and offset optional); the conformance kit reports whether a server writes offsets (`date_time_offsets`) instead of failing one that does not",
    "why": "The service states an offset only for `startedOn`; a time without one is still ISO 8601, so requiring one would claim more than the service.",
    "findings": [
      "date_time_offsets"
    ]
  },
  {
    "id": "file-and-person-name-values",
    "label": "`File` and `PersonName` values",
    "service": "File: \"the file name including extension and a download link\"; PersonName: \"a full name\"",
    "decision": "`validateEventPayload` wants a `name` with an extension and a `fileUrl` that parses as a URL, and a `PersonName` with more than white space",
    "why": "The words of the table, checked as far as they can be without inventing a format (no URL scheme or name pattern is required)."
  },
  {
    "id": "unknown-variable-types",
    "label": "Variable types the client does not know",
    "service": "Not stated",
    "decision": "The client passes a value of a type it does not know (a newer service's) unchecked, and the service judges it (the client's choice)",
    "why": "A new type should not block every fire of a trigger."
  },
  {
    "id": "trigger-list-shape",
    "label": "Trigger list shape",
    "service": "\"body shaped as the descriptor\", \"the list of all triggers\", wrapping \"not shown\"",
    "decision": "Declared as a JSON array of descriptors; the client also accepts a single descriptor and resolves to an array; the conformance kit accepts every shape a server may choose (an array, a single descriptor, an object wrapping one array, an object of descriptors keyed by their `externalEventId`), checks the descriptors, and reports the shape (`trigger_list_shape`), failing another shape only when a team's config names its own (`decisions.triggerListShape`) (the kit's choice)",
    "why": "A list operation returns a list; the single shape is handled where it would arrive.",
    "sandbox": {
      "flag": "trigger-list",
      "values": [
        "array",
        "single"
      ]
    },
    "findings": [
      "trigger_list_shape"
    ]
  },
  {
    "id": "both-identifiers",
    "label": "Both identifiers in a fire request",
    "service": "Which wins: \"not shown\"",
    "decision": "Both are allowed (first variant); the description says to send one",
    "why": "Rejecting both would invent a rule; preferring one would too.",
    "sandbox": {
      "flag": "identifier-wins",
      "values": [
        "conversationId",
        "externalConversationId"
      ]
    },
    "findings": [
      "identifier_precedence"
    ]
  },
  {
    "id": "request-schema-closure",
    "label": "Request schema closure",
    "service": "Not stated",
    "decision": "Request bodies are not closed to extra properties",
    "why": "Only the export model is stated as closed."
  },
  {
    "id": "empty-identifiers",
    "label": "Empty identifiers",
    "service": "Not stated",
    "decision": "`minLength: 1` on identifiers, trigger and variable names, and variable codes",
    "why": "An empty identifier cannot identify anything; catching it before sending helps."
  },
  {
    "id": "default-page-size",
    "label": "Default page size",
    "service": "Exists, value \"not shown\"",
    "decision": "`pageSize` optional, no default value; the response's `pageSize` reports it",
    "why": "Its value is unknown.",
    "sandbox": {
      "flag": "default-page-size",
      "values": "positive integer",
      "default": "20"
    },
    "findings": [
      "default_page_size"
    ]
  },
  {
    "id": "max-page-size",
    "label": "Maximum page size",
    "service": "\"not shown\"",
    "decision": "No `maximum`",
    "why": "Unknown.",
    "sandbox": {
      "flag": "max-page-size",
      "values": "positive integer or none",
      "default": "none",
      "note": " (or a number; larger is a 400; a number below `--default-page-size` is refused at start, or by `PUT /_sandbox/switches`, naming both: the sandbox's own default never refuses a search)"
    },
    "findings": [
      "max_page_size"
    ]
  },
  {
    "id": "page-index-base",
    "label": "Base of `pageIndex`",
    "service": "Not stated",
    "decision": "`minimum: 0`; the next page is the returned `pageIndex` plus one; the first request omits it",
    "why": "Works whether pages count from 0 or 1.",
    "sandbox": {
      "flag": "page-base",
      "values": [
        "0",
        "1"
      ]
    },
    "findings": [
      "page_index_base"
    ]
  },
  {
    "id": "item-order",
    "label": "Ordering of search items",
    "service": "\"not shown\"",
    "decision": "Not described",
    "why": "Unknown.",
    "sandbox": {
      "flag": "order",
      "values": [
        "startedOn-desc",
        "startedOn-asc",
        "latestMessageOn-desc"
      ]
    },
    "findings": [
      "item_order"
    ]
  },
  {
    "id": "status-letter-case",
    "label": "Letter case of `status` filter",
    "service": "\"not shown\"; listed capitalized",
    "decision": "`status` uses `ConversationStatus` (capitalized)",
    "why": "Documented values only; Prism rejects other case with 422.",
    "sandbox": {
      "flag": "status-case",
      "values": [
        "exact",
        "insensitive"
      ]
    },
    "findings": [
      "status_letter_case"
    ]
  },
  {
    "id": "empty-result-counts",
    "label": "Counts of an empty result",
    "service": "`totalPageCount` is \"the total number of pages\"; for a search that matches nothing: not stated",
    "decision": "Not described; the conformance kit's `envelope_math` accepts `totalPageCount` 0 (no page) or 1 (one empty page) when `totalItemCount` is 0, and reports which it saw (`empty_result_counts`) (the kit's choice)",
    "why": "Both readings fit the words; every other count of an empty page follows from them.",
    "findings": [
      "empty_result_counts"
    ]
  },
  {
    "id": "counts-and-indexes",
    "label": "Counts and indexes",
    "service": "integers",
    "decision": "`minimum: 0` on counts and indexes",
    "why": "They count things; no other bound is invented."
  },
  {
    "id": "search-error-statuses",
    "label": "Search error statuses",
    "service": "\"not shown\"",
    "decision": "`401` (the `unauthorized` example), then `4XX` and `5XX` range responses with the open error body; the `4XX` example says the service lists no client errors",
    "why": "A search that matches nothing is still a success: the conformance kit expects 200 with an empty page for it (`empty_search_page`), except that a search naming an unknown bot may be refused, which it reports (`unknown_bot_search`). Every operation needs the same `X-Token`, and `401` is stated for a missing or invalid token on the other two; other codes are not known. A `4XX` example must not claim one cause (the mock used to serve \"Authorization failed\" for every 4XX). A search with a value the description rules out may be refused or answered with the value ignored: the conformance kit sends such searches and reports which (`invalid_search_values`), never failing either (the kit's choice, from the seed's words).",
    "sandbox": {
      "flag": "unknown-parameters",
      "values": [
        "reject",
        "ignore"
      ],
      "text": "400 for invalid parameters ({switch} for unlisted ones)"
    },
    "findings": [
      "unknown_bot_search",
      "unlisted_query_parameters",
      "invalid_search_values"
    ]
  },
  {
    "id": "trigger-list-errors",
    "label": "Trigger list errors besides 401, 404 and 500",
    "service": "Operation 2 states 401, 404 and 500; others \"not shown\"",
    "decision": "A `4XX` range with the open error body (`UnlistedClientError`), as the search has",
    "why": "A server may refuse a request the seed does not cover (an unknown query parameter, a request line too long) with another client error; a checker must not call that undocumented."
  },
  {
    "id": "default-search-example",
    "label": "Default search example",
    "service": "n/a",
    "decision": "`onlyPage` comes first: every conversation on one page, `hasMore: false`; `firstPage`/`lastPage` show paging",
    "why": "A stateless mock answers every page request with the first example; a first page with `hasMore: true` would send any pager in a loop."
  },
  {
    "id": "consistent-examples",
    "label": "Examples that show the same conversation",
    "service": "n/a",
    "decision": "The named examples tell one story: a conversation has the same summary on every page example, and its summary agrees with its export (`messagesCount` is the number of `Message` activities in the history, `latestMessageText`/`latestMessageOn` those of the last one; `test/example-consistency.test.ts`)",
    "why": "The seed calls `messagesCount` the number of messages, and events are activities, not messages; a count no example can be checked against would be a made-up fact."
  },
  {
    "id": "error-body-layout",
    "label": "Error body layout, error codes",
    "service": "\"not shown\"",
    "decision": "`ErrorDetails` accepts any JSON value, spelled as the full type list (object, array, string, number, boolean, null) so orval does not turn it into an empty interface; the examples are marked illustrative",
    "why": "Inventing fields would mislead parsers.",
    "sandbox": {
      "flag": "error-media-type",
      "values": [
        "application/json",
        "application/problem+json"
      ],
      "note": "; RFC 9457 fields either way"
    },
    "findings": [
      "error_body_layout"
    ]
  },
  {
    "id": "error-media-type",
    "label": "Error media type (the conformance kit)",
    "service": "Payloads are JSON; error layout \"not shown\"",
    "decision": "`content_type_conformance` accepts an error body in `application/json` or any `+json` type (`application/problem+json` among them), and any type a team lists in `decisions.errorMediaTypes`; the layout is a finding (`error_body_layout`) (the kit's choice)",
    "why": "The seed says payloads are JSON, nothing more about errors."
  },
  {
    "id": "client-error-reason",
    "label": "A short reason in client errors",
    "service": "Error body layout \"not shown\"",
    "decision": "The client's error message quotes the first validation entry's `message`, else `detail`, `title` or `message`, when the body has one (the client's choice)",
    "why": "Common layouts (Prism's problem+json among them); the whole body stays on the error."
  },
  {
    "id": "workflow-paging",
    "label": "Paging in the Arazzo workflows (`workflows/bot-conversation.arazzo.yaml`)",
    "service": "Base of `pageIndex` not stated",
    "decision": "The walk's first request sends no `pageIndex` (the service's own first page); each next page is asked for by the previous page's `toItemExclusive` at a page size of 1, which is the next index when pages count from 0, as this description reads `pageIndex`; a service counting from 1 would answer the same page again, and the step's criteria (`fromItemInclusive == pageIndex`) then fail instead of looping",
    "why": "Arazzo's runtime expressions have no arithmetic, so \"the returned `pageIndex` plus one\" cannot be written; the workflow says so in its description."
  },
  {
    "id": "workflow-bodies",
    "label": "Trigger list and error bodies in the workflows",
    "service": "List shape and error layout \"not shown\"",
    "decision": "The trigger step's criteria search the whole body (`$..` JSONPath), so they hold for an array and for a single descriptor; the wrong-type journey asks only that the 500's body names the variable (`search(@, 'orderTotal')`); `redocly respect`'s own schema check still follows this description (an array)",
    "why": "Criteria must hold for every answer the service may give; the schema check is the description's assumption and is reported as such."
  },
  {
    "id": "sandbox-example-identifiers",
    "label": "Example identifiers in the sandbox",
    "service": "n/a",
    "decision": "The sandbox's default data starts with the description's example bot (its `agentStageId`, the triggers of `ExternalEventTriggerArray`) and example conversations (read from the bundle; the export of `ConversationExportFull`, and for the others an export built so their summary is the example's); the rest is generated (the sandbox's choice)",
    "why": "A request written against the mock runs unchanged against the sandbox, and the workflows' inputs default to those identifiers."
  },
  {
    "id": "sandbox-data-and-control",
    "label": "The sandbox's `--data` file, its control API and its request journal (`packages/sandbox`)",
    "service": "n/a (the sandbox's own interface)",
    "decision": "`--data` is a SQLite database (`node:sqlite`, WAL, `synchronous = NORMAL`: acknowledged = committed, a power failure may lose the last writes; the fires of one event-loop turn are one transaction, each answered after its commit, and a commit that fails answers 503 naming the reason), one sandbox per file (exclusive lock), layout 5 in `user_version`; a layout-4 (JSON lines) file is refused, not converted; `GET /_sandbox/fired-events` answers at most 1,000 events by default (`limit` up to 10,000, `cursor` from `X-Next-Cursor`/`Link`); over HTTP the control API answers only loopback `Host` names and origins plus `--allow-host`/`--allow-origin` (403 otherwise), while the service's operations answer any origin, a Private Network Access preflight included; the request journal keeps 10,000 requests within 16 Mi characters, and no body of a request refused for its token (the sandbox's choices)",
    "why": "A test tool must lose nothing it acknowledged and touch nothing else; a layout-4 file needs a line-by-line repair a team can do better by starting afresh; a page of 1,000 keeps every existing caller whole; any web page can reach a loopback sandbox, the frontends it serves need the service's operations from anywhere."
  },
  {
    "id": "cli-and-mcp",
    "label": "The command line and MCP server (`packages/cli`)",
    "service": "Base of `pageIndex`, both identifiers in a fire, fields beyond the description: not stated",
    "decision": "`search --all`, `--limit` and the MCP tool's `nextCursor` follow the client's paging rule (the returned `pageIndex` plus one); `fire` takes one of `--conversation-id` and `--external-conversation-id`, as the description says to send one (the MCP tool passes what it is given to the client); CSV columns come from the description's schemas, so a field it does not list is in JSON and NDJSON only (the CLI's choices)",
    "why": "One paging rule on every surface; a CSV header that never depends on the data."
  },
  {
    "id": "date-range-end",
    "label": "End of a date range",
    "service": "\"Start\" and \"end of the period\"; whether a bound includes its own instant: not stated",
    "decision": "Not described; the conformance kit judges date filters as instants, never as text, and only 1 ms either side of an item's instant; a bound at the exact instant is *not judged* unless the team's config names `decisions.dateRangeBounds` (`inclusive` or `exclusive`) (the kit's choice)",
    "why": "Both readings fit the words; the ±1 ms cases hold either way.",
    "sandbox": {
      "flag": "date-to",
      "values": [
        "inclusive",
        "exclusive"
      ]
    },
    "findings": [
      "date_range_end"
    ]
  },
  {
    "id": "kit-max-page-size",
    "label": "Maximum page size (the conformance kit)",
    "service": "\"not shown\"",
    "decision": "Without a decision, a page size above the server's own default that the server refuses is *not judged* (the finding `max_page_size` says what it did), and a page holding every conversation (and one more) is sent as valid; with `decisions.maxPageSize: N`, no larger size is sent as valid and `N + 1` must be refused (4xx) or capped (the kit's choice)",
    "why": "The description sets no maximum; any maximum at or above the default is the server's own decision."
  },
  {
    "id": "undocumented-methods",
    "label": "Undocumented methods, `Accept` (the conformance kit)",
    "service": "Methods other than those listed, and media types other than JSON: not stated",
    "decision": "`unsupported_method` fails only a 405 without `Allow` (RFC 9110's MUST); any other answer to a method the description does not list, a 2xx included, is reported (`undocumented_methods`), never failed: the seed lists each operation's method and says nothing of the others. Such methods are sent read-only only where they change nothing (GET on the fire path, DELETE on an unknown bot's trigger list); `accept_negotiation` accepts 406 or a documented media type (the kit's choices)",
    "why": "HTTP's own rules, where the seed is silent; a server that performs a method it was not asked to list breaks no sentence of the seed.",
    "findings": [
      "undocumented_methods"
    ]
  },
  {
    "id": "documented-server-errors",
    "label": "The 500s the service documents (the conformance kit)",
    "service": "List triggers 500: internal server error; fire 500: variable values failed validation; each: the body carries details",
    "decision": "`not_a_server_error` fails a 5xx the description documents only by a range (the search's `5XX`), and a documented 500 without details in its body; a trigger list's or a fire's 500 with details is the service's own answer, reported (`documented_server_errors`), never failed by it (the kit's choice, from the seed's Errors table); whether a fire's 500 was for a value that fails validation is `payload_acceptance`'s",
    "why": "The seed lists the trigger list's 500 as one of its answers, so a server that gives it breaks no sentence of the seed.",
    "findings": [
      "documented_server_errors"
    ]
  },
  {
    "id": "token-variants",
    "label": "Token in the query string and variants of the token (the conformance kit)",
    "service": "`X-Token` header \"the only authorization method listed\"; a missing or invalid token is 401",
    "decision": "`ignored_auth` expects 401 for every near miss of the token (cut, a character more, another letter case, a space inside, doubled, quoted, behind `Bearer`, an empty `X-Token`) and for the token on every other channel with no `X-Token` (the query string, `Authorization`, a cookie, other header names), on every operation and on a later page of a filtered search (the kit's `credential-near-misses` and `credential-channels` families); a lower-case header name and white space around the value are no near misses, HTTP reads them as the token (the kit's choice)",
    "why": "The header is the only method the seed lists, and a token is compared as given."
  },
  {
    "id": "auth-order",
    "label": "Order of 401 and 404",
    "service": "A missing or invalid token gives status 401 (stated unconditionally for operations 2 and 3); 404 for an unknown bot, trigger or conversation",
    "decision": "The 401 does not wait for the look-up: the conformance kit's `ignored_auth` fails a 404 for a request that names an unknown bot, trigger or conversation with a bad token (its `credential-before-lookup` family)",
    "why": "The seed's 401 has no condition; a server that looks the resource up first tells a caller without a valid token which bots exist."
  },
  {
    "id": "identifier-letter-case",
    "label": "Letter case of identifiers",
    "service": "Whether `agentStageId`, `conversationId` and `channelId` ignore letter case: not stated",
    "decision": "Not described; the conformance kit sends the known bot's id in another letter case to the trigger list and the search and reports the answers (`identifier_letter_case`), judging neither (the kit's choice)",
    "why": "Both readings fit the seed; an identifier cut or lengthened is another identifier whatever the reading, and is judged.",
    "findings": [
      "identifier_letter_case"
    ]
  },
  {
    "id": "head-and-options",
    "label": "Methods HEAD and OPTIONS",
    "service": "Not stated",
    "decision": "Not described; the conformance kit sends each once on the search path and reports the answers (`head_and_options`), judging only that they are not a server error (the kit's choice)",
    "why": "HTTP defines both for any resource; the seed lists only GET and POST.",
    "findings": [
      "head_and_options"
    ]
  },
  {
    "id": "kit-relations",
    "label": "Answers HTTP leaves open (the conformance kit's relations)",
    "service": "HEAD, percent-encoding in a path, content negotiation: not stated",
    "decision": "Not described; the conformance kit applies its metamorphic relations to the requests of every operation in every phase (HEAD as GET, an unreserved character percent-encoded in the query and in the path, `Accept` with JSON among others, `Connection: close`, `If-None-Match`, and on a body: chunked framing, white space between JSON tokens, members in another order; the walk at another page size) and its relations across operations (a search against the export, the trigger list against a fire, what a fire changes, answers at once against answers in turn) and fails only what HTTP or the seed rules out (a body in the answer to HEAD, another answer for a percent-encoded query value, on a closed connection, for a chunked body or for JSON with white space, a non-matching `If-None-Match` changing the answer, another total at another page size, a summary that disagrees with its export, a listed trigger answered 404, another conversation changed by a fire, another answer among others at once); a difference HTTP or the seed allows (HEAD refused, a path not normalized, another answer for another `Accept` or another member order, a 411 for a chunked body, how the fired conversation changed) is reported (`relation_differences`) (the kit's choice)",
    "why": "RFC 9110 and RFC 3986 leave these to the server where they say SHOULD or nothing; a checker that failed them would fail faithful servers.",
    "findings": [
      "relation_differences"
    ]
  },
  {
    "id": "unlisted-variables",
    "label": "Unlisted variables in a fire payload",
    "service": "The fillable variables come from operation 2; a variable the trigger does not list: not stated",
    "decision": "`ExternalEventPayload` is an open map; the client's `validateEventPayload` reports such a variable before sending; the sandbox refuses it with the 500; the conformance kit sends one with `--allow-fire` and reports whether it is ignored or refused (`unlisted_variable`) (the kit's choice)",
    "why": "Refusing and ignoring both fit the seed.",
    "findings": [
      "unlisted_variable"
    ]
  },
  {
    "id": "status-transitions",
    "label": "Status transitions",
    "service": "\"not shown\"",
    "decision": "Not described",
    "why": "Unknown."
  },
  {
    "id": "token-lifetime",
    "label": "Token issue, lifetime, scope",
    "service": "\"not shown\"",
    "decision": "Not described; the client accepts a token function for refresh",
    "why": "Unknown."
  },
  {
    "id": "query-and-inbox",
    "label": "TanStack Query options (`packages/query`) and the inbox example (`examples/inbox`)",
    "service": "Base of `pageIndex`, retries, time-outs: not stated",
    "decision": "The infinite search's next page is the client's `nextPageIndex` (the returned `pageIndex` plus one while `hasMore`), its first request without `pageIndex`; queries set `retry: false` (the client already retries connection errors and 408, 429, 502, 503, 504) and the fire mutation is never retried; keys hold no base address; the inbox sends a DateTime as the UTC instant of the local time entered, and a ComplexObject as the JSON typed, leaving the check to the service (the package's and the example's choices)",
    "why": "One paging rule on every surface; no second retry layer multiplying requests or retrying a 404; a fire twice runs the scenario twice."
  },
  {
    "id": "redirects",
    "label": "Redirects",
    "service": "None documented",
    "decision": "No 3xx is described; the client never follows one and reports it as an error naming the Location's origin (the client's choice)",
    "why": "`fetch` would send `X-Token` and a fire body to another origin."
  },
  {
    "id": "export-operation",
    "label": "Operation returning the export",
    "service": "\"not shown\"",
    "decision": "No operation; the export is a model with its own page",
    "why": "Unknown."
  },
  {
    "id": "event-delivery",
    "label": "Event delivery to subscribers",
    "service": "\"not shown\"",
    "decision": "No callbacks or webhooks",
    "why": "Unknown."
  },
  {
    "id": "limits",
    "label": "Rate limits, payload size, time-outs",
    "service": "\"not shown\"",
    "decision": "Not described; the client's time-out (60 s) and retries are client choices; so are the toolkit's bounds on what it reads from a peer: a response body of at most 16 MiB (`maxResponseBytes`, used by the client, the CLI, the MCP server and the conformance kit), paging that stops at the envelope's own `totalItemCount` and `totalPageCount`, MCP results of at most 256 KiB, and Try it's 30 s per request; the conformance kit waits out a 429 (or a 503 with `Retry-After`, at most 60 s and 5 times per request), halves its rate, reports the limit (`rate_limit`) and never fails a check on it; a limit that does not fit in `--max-time` ends the run with exit code 3 (the kit's choices)",
    "why": "Unknown: our bounds, far above any real page, so that a hostile or broken server cannot exhaust memory or loop.",
    "findings": [
      "rate_limit",
      "rate_limit_headers"
    ]
  },
  {
    "id": "versioning",
    "label": "Versioning policy",
    "service": "Version is a path segment (`/api/v2/`, `/api/v1/`); policy \"not shown\"",
    "decision": "Paths carry the segment; `info.version` (1.0.0) versions this description, semver, guarded by `check:breaking`",
    "why": "Keeps the description's own changes honest without inventing a service policy."
  },
  {
    "id": "unreadable-fire-request",
    "label": "Unreadable fire request (malformed JSON, wrong content type)",
    "sandbox": {
      "text": "400 / 415 / 413, within the `4XX` the description now lists for it"
    }
  },
  {
    "id": "request-id-headers",
    "label": "Request id headers",
    "findings": [
      "request_id_headers"
    ]
  }
] as const;

/** The points the sandbox answers with a switch, with only what it reads (id, label, flag, values, default): a page that bundles the sandbox carries none of the decisions' prose. */
export const sandboxAnswers = [
  {
    "id": "inbound-direction",
    "label": "Inbound direction spelling",
    "sandbox": {
      "flag": "inbound-direction",
      "values": "text",
      "default": "Inbound"
    }
  },
  {
    "id": "trigger-list-shape",
    "label": "Trigger list shape",
    "sandbox": {
      "flag": "trigger-list",
      "values": [
        "array",
        "single"
      ]
    }
  },
  {
    "id": "both-identifiers",
    "label": "Both identifiers in a fire request",
    "sandbox": {
      "flag": "identifier-wins",
      "values": [
        "conversationId",
        "externalConversationId"
      ]
    }
  },
  {
    "id": "default-page-size",
    "label": "Default page size",
    "sandbox": {
      "flag": "default-page-size",
      "values": "positive integer",
      "default": "20"
    }
  },
  {
    "id": "max-page-size",
    "label": "Maximum page size",
    "sandbox": {
      "flag": "max-page-size",
      "values": "positive integer or none",
      "default": "none"
    }
  },
  {
    "id": "page-index-base",
    "label": "Base of `pageIndex`",
    "sandbox": {
      "flag": "page-base",
      "values": [
        "0",
        "1"
      ]
    }
  },
  {
    "id": "item-order",
    "label": "Ordering of search items",
    "sandbox": {
      "flag": "order",
      "values": [
        "startedOn-desc",
        "startedOn-asc",
        "latestMessageOn-desc"
      ]
    }
  },
  {
    "id": "status-letter-case",
    "label": "Letter case of `status` filter",
    "sandbox": {
      "flag": "status-case",
      "values": [
        "exact",
        "insensitive"
      ]
    }
  },
  {
    "id": "search-error-statuses",
    "label": "Search error statuses",
    "sandbox": {
      "flag": "unknown-parameters",
      "values": [
        "reject",
        "ignore"
      ]
    }
  },
  {
    "id": "error-body-layout",
    "label": "Error body layout, error codes",
    "sandbox": {
      "flag": "error-media-type",
      "values": [
        "application/json",
        "application/problem+json"
      ]
    }
  },
  {
    "id": "date-range-end",
    "label": "End of a date range",
    "sandbox": {
      "flag": "date-to",
      "values": [
        "inclusive",
        "exclusive"
      ]
    }
  }
] as const;
